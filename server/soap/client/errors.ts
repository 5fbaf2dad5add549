/**
 * What a call through the SOAP client can end in, one class per kind of failure, so callers
 * (the checkout server, DESIGN.md "Parts and how data flows") can tell a refusal by the gateway
 * from a gateway that is away. Messages name the operation and the status, never the request body:
 * it can hold card data (DESIGN.md §5). None of them carries the request as a `cause`.
 */

export abstract class SoapClientError extends Error {
  /** The operation called, e.g. `ProcessTransaction`. */
  readonly operation: string;

  constructor(operation: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.operation = operation;
  }
}

/** The fault code without its prefix; SOAP 1.2's Sender/Receiver are reported as Client/Server. */
export type SoapFaultCode = 'Client' | 'Server' | 'VersionMismatch' | 'MustUnderstand' | (string & {});

export interface SoapFaultDetails {
  code: SoapFaultCode;
  /** SOAP 1.1 `faultstring`, SOAP 1.2 `Reason/Text`. */
  faultstring: string;
  /** SOAP 1.2 `Subcode/Value` without its prefix, when there is one. */
  subcode?: string | undefined;
  /** Payframe's error code from `<detail><ErrorCode>` (shared/errors.ts), when the fault carries one. */
  errorCode?: string | undefined;
  /** HTTP status of the response (500 for ASMX faults, 503 when the gateway is briefly away). */
  status: number;
  /** Seconds from `Retry-After`, when the response had one. */
  retryAfter?: number | undefined;
  soapVersion: '1.1' | '1.2';
}

/** The gateway answered with a SOAP fault (asmx-compatibility.md §1.3). */
export class SoapFaultError extends SoapClientError implements SoapFaultDetails {
  override readonly name = 'SoapFaultError';
  readonly code: SoapFaultCode;
  readonly faultstring: string;
  readonly subcode: string | undefined;
  readonly errorCode: string | undefined;
  readonly status: number;
  readonly retryAfter: number | undefined;
  readonly soapVersion: '1.1' | '1.2';

  constructor(operation: string, details: SoapFaultDetails) {
    super(operation, `${operation}: soap:${details.code}: ${details.faultstring}`);
    this.code = details.code;
    this.faultstring = details.faultstring;
    this.subcode = details.subcode;
    this.errorCode = details.errorCode;
    this.status = details.status;
    this.retryAfter = details.retryAfter;
    this.soapVersion = details.soapVersion;
  }
}

/**
 * A non-200 answer without a SOAP fault in it: 400 (XML the gateway could not read), 401 (HTTP
 * Basic refused), 413, 415 (content type), 503 from a proxy, an HTML error page…
 */
export class SoapHttpError extends SoapClientError {
  override readonly name = 'SoapHttpError';

  constructor(
    operation: string,
    readonly status: number,
    /** Seconds from `Retry-After` (a delay in seconds, or an HTTP date converted to seconds). */
    readonly retryAfter: number | undefined,
    readonly contentType: string | undefined,
  ) {
    super(operation, `${operation}: HTTP ${status} without a SOAP fault`);
  }
}

/** No complete answer within the time limit (the request may still have been processed). */
export class SoapTimeoutError extends SoapClientError {
  override readonly name = 'SoapTimeoutError';

  constructor(
    operation: string,
    readonly timeoutMs: number,
  ) {
    super(operation, `${operation}: no answer within ${timeoutMs} ms`);
  }
}

/** The request did not get through: connection refused or reset, DNS failure, TLS error. */
export class SoapTransportError extends SoapClientError {
  override readonly name = 'SoapTransportError';

  constructor(
    operation: string,
    /** The system error code when there is one (`ECONNREFUSED`, `ECONNRESET`, `ENOTFOUND`…). */
    readonly errno: string | undefined,
    cause: unknown,
  ) {
    super(operation, `${operation}: the request could not be sent${errno ? ` (${errno})` : ''}`, { cause });
  }
}

/**
 * A 200 answer that is not what the contract says (not XML, no `<OpResponse>`, a value of the wrong
 * type), or parameters that do not fit the contract. `path` locates the element; values are left
 * out of the message on purpose.
 */
export class SoapContractError extends SoapClientError {
  override readonly name = 'SoapContractError';

  constructor(
    operation: string,
    readonly direction: 'request' | 'response',
    readonly path: string | undefined,
  ) {
    super(
      operation,
      direction === 'request'
        ? `${operation}: the parameters do not fit the contract${path ? ` at ${path}` : ''}`
        : `${operation}: the response does not fit the contract${path ? ` at ${path}` : ''}`,
    );
  }
}
