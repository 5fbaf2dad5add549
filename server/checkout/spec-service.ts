/**
 * A Transaction Service that is not Payframe's, as the spec adapter calls it (spec-port.ts,
 * spec-lookup.ts): its spec operations over SOAP with the credential the configuration names —
 * none, HTTP Basic, or a fixed header — under the retry rules of remote-port.ts (a read whose
 * request could not be sent goes once more; ProcessTransaction never twice), errors as the
 * catalogue's.
 */
import type { OperationName } from '../../shared/contract/operations.ts';
import type { OperationParams, OperationResult } from '../../shared/contract/service.ts';
import type { CallContext } from '../gateway/port.ts';
import { TransactionServiceClient } from '../soap/client/transaction-service-client.ts';
import type { SoapVersion } from '../soap/soap-fault.ts';
import { asCatalogueError, callOnce } from './remote-port.ts';

/** How the checkout presents itself to the service: configuration, not code. */
export type ForeignAuth =
  | { kind: 'none' }
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'header'; name: string; value: string };

export interface ForeignServiceOptions {
  /** The service's {base_url}; its /TransactionService.asmx is called. */
  baseUrl: string;
  /** SOAP_NAMESPACE: the service's {namespace}. */
  namespace: string;
  soapVersion: SoapVersion;
  auth: ForeignAuth;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** The service as a caller of the spec's operations, with the configured credential. */
export function foreignCaller(o: ForeignServiceOptions) {
  const client = new TransactionServiceClient({
    baseUrl: o.baseUrl,
    namespace: o.namespace,
    soapVersion: o.soapVersion,
    timeoutMs: o.timeoutMs,
    fetch: o.fetch,
    ...(o.auth.kind === 'basic' ? { username: o.auth.username, password: o.auth.password } : {}),
  });
  const headers = o.auth.kind === 'header' ? { [o.auth.name]: o.auth.value } : {};
  return async <N extends OperationName>(
    name: N,
    params: OperationParams<N>,
    context: Pick<CallContext, 'requestId'>,
  ): Promise<OperationResult<N>> => {
    try {
      return await callOnce(client, name, params, { requestId: context.requestId, headers });
    } catch (err) {
      throw asCatalogueError(err);
    }
  };
}

export type ForeignCall = ReturnType<typeof foreignCaller>;
