import { ERRORS, type ErrorCode, type FieldError } from '../shared/errors.ts';

/** An error from the catalogue, thrown anywhere on the server and rendered by the one error handler. */
export class PayframeError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string = ERRORS[code].message,
    readonly fields?: FieldError[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PayframeError';
    this.status = ERRORS[code].status;
  }
}
