/**
 * Every error an operation can end in, as the fault ASMX would send (asmx-compatibility.md §1.3):
 * request problems are `Client` faults ("Server was unable to read request. ---> …"), problems in
 * the operation are `Server` faults ("Server was unable to process request. ---> …") whose details
 * stay in the log. Catalogue errors keep their stable code in `<detail>`.
 */
import type { FastifyBaseLogger } from 'fastify';
import { isUnavailableError } from '../db/index.ts';
import { noteStorageRefusal } from '../db/storage-refusals.ts';
import { PayframeError } from '../errors.ts';
import { DecodeError } from './codec/decode.ts';
import { SoapFault } from './soap-fault.ts';

export const UNABLE_TO_READ = 'Server was unable to read request.';
export const UNABLE_TO_PROCESS = 'Server was unable to process request.';
/** The Basic challenge of a 401, as IIS sends it in front of ASMX. */
export const WWW_AUTHENTICATE = 'Basic realm="Payframe Transaction Service", charset="UTF-8"';

export interface MappedFault {
  fault: SoapFault;
  /**
   * Set when the answer belongs to the transport, as IIS gives it in front of ASMX: 401 with a
   * Basic challenge for a missing or wrong credential, 429 when failures are throttled. The body is
   * empty and says nothing of which part was wrong.
   */
  transport?: { status: number; headers: Record<string, string> };
  /** 500 for faults, as ASMX; 503 with Retry-After when the database is briefly away. */
  status: number;
  retryAfter?: number;
}

export function faultFromError(err: unknown, log: FastifyBaseLogger): MappedFault {
  if (err instanceof SoapFault) return { fault: err, status: 500 };
  if (err instanceof DecodeError) {
    const where = err.position
      ? ` ---> There is an error in XML document (${err.position.line}, ${err.position.col}).`
      : '';
    return {
      fault: new SoapFault('Client', `${UNABLE_TO_READ}${where} ---> ${err.message}`, 'invalid_request'),
      status: 500,
    };
  }
  if (err instanceof PayframeError && err.code === 'unauthorized') {
    return {
      fault: new SoapFault('Client', err.message, err.code),
      status: 401,
      transport: {
        status: 401,
        headers: { 'www-authenticate': WWW_AUTHENTICATE },
      },
    };
  }
  if (err instanceof PayframeError && err.code === 'rate_limited') {
    return {
      fault: new SoapFault('Client', err.message, err.code),
      status: 429,
      transport: { status: 429, headers: { 'retry-after': String(err.retryAfterSeconds ?? 60) } },
    };
  }
  if (err instanceof PayframeError) {
    const faultCode = err.status < 500 ? 'Client' : 'Server';
    const message = err.status < 500 ? err.message : `${UNABLE_TO_PROCESS} ---> ${err.message}`;
    return { fault: new SoapFault(faultCode, message, err.code), status: 500 };
  }
  // A write refused by a database that answers is noted for /readyz but stays a 500 "error on the
  // server": a sale may have charged before its record was refused, and a 503 "try again shortly"
  // would invite a merchant's retry to charge again (the checkout's pays are keyed, SOAP sales not).
  const internal = {
    fault: new SoapFault('Server', `${UNABLE_TO_PROCESS} ---> An error occurred on the server.`, 'internal'),
    status: 500,
  };
  if (noteStorageRefusal(err)) {
    log.error({ err }, 'the database refused a write during a SOAP call');
    return internal;
  }
  if (isUnavailableError(err)) {
    log.warn({ err }, 'database unavailable during a SOAP call');
    return {
      fault: new SoapFault(
        'Server',
        `${UNABLE_TO_PROCESS} ---> The service is temporarily unavailable. Please try again shortly.`,
        'database_unavailable',
      ),
      status: 503,
      retryAfter: 2,
    };
  }
  log.error({ err }, 'operation failed');
  return internal;
}
