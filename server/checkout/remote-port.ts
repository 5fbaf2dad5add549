/**
 * The port over real SOAP, for the split wiring (`--role checkout`): the TransactionService the
 * checkout expects (`TransactionService<CallContext>`), made of SOAP clients. A call without an
 * Authorization header goes out with the service credential (`service:GATEWAY_SERVICE_KEY`); a
 * merchant's call goes out with the merchant's own HTTP Basic credential, which the gateway checks.
 * The gateway's faults come back as the catalogue's errors, so the checkout reads them the same
 * way in-process and remote. Timeouts and network failures are rethrown as they are: for a
 * payment they mean "outcome unknown", which recovery settles.
 */
import { operations } from '../../shared/contract/index.ts';
import type { OperationName } from '../../shared/contract/operations.ts';
import type { TransactionService } from '../../shared/contract/service.ts';
import { isErrorCode } from '../../shared/errors.ts';
import { PayframeError } from '../errors.ts';
import { parseBasicAuthorization as parseBasic } from './basic-auth.ts';
import type { CallContext } from '../gateway/port.ts';
import { SoapFaultError, SoapHttpError } from '../soap/client/errors.ts';
import { TransactionServiceClient } from '../soap/client/transaction-service-client.ts';

export interface RemotePortOptions {
  /** The gateway's {base_url}, e.g. `https://gateway.internal:3000`. */
  baseUrl: string;
  namespace: string;
  /** GATEWAY_SERVICE_KEY, as configured on the gateway. */
  serviceKey: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export function asCatalogueError(err: unknown): unknown {
  if (err instanceof SoapFaultError && err.errorCode && isErrorCode(err.errorCode)) {
    return new PayframeError(err.errorCode, err.faultstring, undefined, {
      retryAfterSeconds: err.retryAfter,
    });
  }
  if (err instanceof SoapHttpError) {
    if (err.status === 401) return new PayframeError('unauthorized');
    if (err.status === 429) {
      return new PayframeError('rate_limited', undefined, undefined, { retryAfterSeconds: err.retryAfter });
    }
    if (err.status === 503) return new PayframeError('database_unavailable');
  }
  return err;
}

export function remoteTransactionService(options: RemotePortOptions): TransactionService<CallContext> {
  const common = {
    baseUrl: options.baseUrl,
    namespace: options.namespace,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
  };
  const service = new TransactionServiceClient({
    ...common,
    username: 'service',
    password: options.serviceKey,
  });
  const clientFor = (authorization: string | undefined): TransactionServiceClient => {
    if (!authorization) return service;
    const credential = parseBasic(authorization);
    if (!credential) throw new PayframeError('unauthorized');
    return new TransactionServiceClient({
      ...common,
      username: credential.username,
      password: credential.password,
    });
  };
  const port: Record<string, (params: never, context: CallContext) => Promise<unknown>> = {};
  for (const op of operations) {
    const name = op.name as OperationName;
    port[name] = async (params, context) => {
      try {
        // The service principal of an in-process context means "the checkout itself".
        const authorization = context.principal?.kind === 'service' ? undefined : context.authorization;
        // A merchant's own credential, relayed: the gateway counts its failures against the
        // merchant's client address, which the service key vouches for (not against this host).
        const headers = authorization
          ? { 'x-payframe-relay': options.serviceKey, 'x-payframe-client-address': context.remoteAddress }
          : undefined;
        return await clientFor(authorization).call(name, params, { requestId: context.requestId, headers });
      } catch (err) {
        throw asCatalogueError(err);
      }
    };
  }
  return port as unknown as TransactionService<CallContext>;
}
