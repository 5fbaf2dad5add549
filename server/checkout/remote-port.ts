/**
 * The port over real SOAP, for the split wiring (`--role checkout`): the TransactionService the
 * checkout expects (`TransactionService<CallContext>`), made of SOAP clients. A call without an
 * Authorization header goes out with the service credential (`service:GATEWAY_SERVICE_KEY`); a
 * merchant's call goes out with the merchant's own HTTP Basic credential, which the gateway checks.
 * The gateway's faults come back as the catalogue's errors, so the checkout reads them the same
 * way in-process and remote. A gateway that cannot be reached (refused, reset, no answer in time) is
 * `database_unavailable`: 503 with Retry-After, the service behind this one unavailable; for a payment
 * it means "outcome unknown", which recovery settles (pay.ts). Retry rules (server/checkout/README.md
 * "Calls to the gateway"): a `read` operation whose request could not be sent is sent once more at
 * once; a `change` operation is never sent twice by this client.
 */
import { changesState } from '../../shared/contract/effects.ts';
import { operations } from '../../shared/contract/index.ts';
import type { OperationName } from '../../shared/contract/operations.ts';
import type { OperationParams, OperationResult, TransactionService } from '../../shared/contract/service.ts';
import { isErrorCode } from '../../shared/errors.ts';
import { PayframeError } from '../errors.ts';
import { parseBasicAuthorization as parseBasic } from './basic-auth.ts';
import type { CallContext } from '../gateway/port.ts';
import {
  SoapFaultError,
  SoapHttpError,
  SoapTimeoutError,
  SoapTransportError,
} from '../soap/client/errors.ts';
import {
  type ClientCallOptions,
  TransactionServiceClient,
} from '../soap/client/transaction-service-client.ts';
import { bearerToken } from '../http/authorization.ts';

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
  if (err instanceof SoapTransportError || err instanceof SoapTimeoutError) {
    return new PayframeError('database_unavailable', undefined, undefined, {
      cause: err,
      retryAfterSeconds: UNREACHABLE_RETRY_AFTER_SECONDS,
    });
  }
  return err;
}

/** Retry-After when the gateway could not be reached: a restart or a network blip, seconds long. */
const UNREACHABLE_RETRY_AFTER_SECONDS = 2;

/**
 * How many times a `read` whose request could not be sent (refused, or reset on a kept-alive
 * connection the gateway has closed) is sent again at once. A timeout is not resent: the call's
 * time is spent. A `change` is never resent: a lost answer leaves its outcome unknown, and only the
 * caller knows how to learn it (a pay: recovery asks GetCheckoutSession).
 */
const READ_RESENDS = 1;

/**
 * One call by the rules above: a `read` whose request could not be sent goes once more at once; a
 * `change` goes once. Errors are the client's (asCatalogueError turns them into the catalogue's).
 */
export async function callOnce<N extends OperationName>(
  client: TransactionServiceClient,
  name: N,
  params: OperationParams<N>,
  call: ClientCallOptions,
): Promise<OperationResult<N>> {
  const resends = changesState(name) ? 0 : READ_RESENDS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.call(name, params, call);
    } catch (err) {
      if (!(err instanceof SoapTransportError) || attempt >= resends) throw err;
    }
  }
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
    // A merchant user's session (the dashboard) travels as it came.
    const token = bearerToken(authorization);
    if (token !== null) return new TransactionServiceClient({ ...common, bearerToken: token });
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
        // The client's address, which the service key vouches for: the gateway counts a relayed
        // merchant credential's failures, and a relayed sign-in's (the dashboard's Login), against
        // that client, not against this host.
        const headers = {
          'x-payframe-relay': options.serviceKey,
          'x-payframe-client-address': context.remoteAddress,
        };
        return await callOnce(clientFor(authorization), name, params, {
          requestId: context.requestId,
          headers,
        });
      } catch (err) {
        throw asCatalogueError(err);
      }
    };
  }
  return port as unknown as TransactionService<CallContext>;
}
