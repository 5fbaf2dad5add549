/**
 * The one catalogue of Payframe errors (DESIGN.md §15). Codes are stable: merchants and the widget
 * match on them. SOAP faults, REST errors and widget messages all map from this table; the message
 * is what a person reads, and never carries card data or secrets.
 */
export const ERRORS = {
  invalid_request: { status: 400, message: 'The request is not valid.' },
  validation_failed: { status: 400, message: 'Some fields are not valid.' },
  // A second-factor code (TOTP or recovery code) that is wrong, used already or out of its window.
  invalid_code: { status: 400, message: 'This code is not valid. Try the current code.' },
  unauthorized: { status: 401, message: 'Authentication is required.' },
  // The dashboard's sign-in: one answer for an unknown user, a wrong password and a locked user.
  sign_in_failed: { status: 401, message: 'The user name or password is not correct.' },
  forbidden: { status: 403, message: 'This credential may not perform this action.' },
  // A merchant user signed in with its password and has not verified its second factor yet.
  second_factor_required: { status: 403, message: 'Verify your second factor to continue.' },
  not_found: { status: 404, message: 'Nothing was found at this address.' },
  method_not_allowed: { status: 405, message: 'This method is not allowed here.' },
  conflict: { status: 409, message: 'The request conflicts with another request in progress.' },
  // The checkout's session states, so the widget and merchants can act on each without reading text.
  payment_in_progress: {
    status: 409,
    message: 'A payment for this checkout session is in progress. Try again shortly.',
  },
  session_expired: { status: 409, message: 'This checkout session has expired.' },
  session_canceled: { status: 409, message: 'This checkout session was canceled.' },
  session_paid: { status: 409, message: 'This checkout session has already been paid.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'The request content type is not supported.' },
  idempotency_mismatch: {
    status: 422,
    message: 'This Idempotency-Key was already used with a different request.',
  },
  rate_limited: { status: 429, message: 'Too many requests. Please wait and try again.' },
  internal: { status: 500, message: 'An error occurred on the server.' },
  not_implemented: { status: 501, message: 'This operation is not implemented yet.' },
  database_unavailable: {
    status: 503,
    message: 'The service is temporarily unavailable. Please try again shortly.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** A field-level problem, so a form can show each one on its input (STYLE.md §5). */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/** The JSON body of every REST error. */
export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    requestId?: string;
    fields?: FieldError[];
  };
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERRORS, value);
}
