import { ERRORS, type ErrorCode, type FieldError } from '../shared/errors.ts';

/** An error from the catalogue, thrown anywhere on the server and rendered by the one error handler. */
export class PayframeError extends Error {
  readonly status: number;
  /** For rate_limited and database_unavailable: when the client may try again. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string = ERRORS[code].message,
    readonly fields?: FieldError[],
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.retryAfterSeconds = options?.retryAfterSeconds;
    this.name = 'PayframeError';
    this.status = ERRORS[code].status;
  }
}
