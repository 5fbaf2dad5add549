/**
 * Which adapter the checkout role puts behind its port (issue 20; server/checkout/README.md "Spec
 * mode"): `payframe` (remote-port.ts: the typed extensions) or `spec` (spec-port.ts: the spec's 21
 * operations). TRANSACTION_SERVICE_MODE names it, or `auto` (the default) reads the service's WSDL
 * once at start: a service whose WSDL offers the checkout's extensions is Payframe's, one that
 * offers GetHostedPaymentDetails and ProcessTransaction but not them speaks the spec.
 */
import type { Config } from '../config.ts';
import { ConfigError } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { TransactionService } from '../../shared/contract/service.ts';
import type { CallContext } from '../gateway/port.ts';
import type { FastifyBaseLogger } from 'fastify';
import { remoteTransactionService } from './remote-port.ts';
import { portSigner, type Signer } from './signer.ts';
import { specTransactionService } from './spec-port.ts';
import type { ForeignAuth } from './spec-service.ts';
import { specSecretBox } from './spec-merchants.ts';

export type ServiceMode = 'payframe' | 'spec';

/** The extensions the checkout's Payframe adapter calls: all four, or the service is not Payframe's. */
const PAYFRAME_OPERATIONS = [
  'GetCheckoutSession',
  'PayCheckoutSession',
  'ListEndedCheckoutSessions',
  'SignForMerchant',
];
const SPEC_OPERATIONS = ['GetHostedPaymentDetails', 'ProcessTransaction'];

/** The operation names a WSDL declares (its portType's and bindings' `operation` elements). */
export function wsdlOperationNames(wsdl: string): Set<string> {
  const names = new Set<string>();
  for (const m of wsdl.matchAll(/<(?:[A-Za-z_][\w.-]*:)?operation\b[^>]*\bname\s*=\s*["']([^"']+)["']/g))
    names.add(m[1]!);
  return names;
}

/** What a WSDL's operations say of the service; null when it is not a Transaction Service at all. */
export function modeOfWsdl(wsdl: string): ServiceMode | null {
  const names = wsdlOperationNames(wsdl);
  if (PAYFRAME_OPERATIONS.every((n) => names.has(n))) return 'payframe';
  if (SPEC_OPERATIONS.every((n) => names.has(n))) return 'spec';
  return null;
}

/**
 * Reads `<url>/TransactionService.asmx?WSDL` and tells the mode. A service that cannot be reached is
 * asked again (a gateway starting beside the checkout) until `patienceMs` has passed; then, or for a
 * document that is no Transaction Service's WSDL, the start is refused and says what to set.
 */
export async function detectServiceMode(
  baseUrl: string,
  options: { timeoutMs: number; patienceMs?: number; fetch?: typeof fetch; headers?: Record<string, string> },
): Promise<ServiceMode> {
  const url = `${baseUrl}/TransactionService.asmx?WSDL`;
  const doFetch = options.fetch ?? fetch;
  const until = Date.now() + (options.patienceMs ?? 30_000);
  let last = '';
  for (let wait = 250; ; wait = Math.min(wait * 2, 4000)) {
    try {
      const res = await doFetch(url, {
        headers: options.headers,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const body = await res.text();
      if (res.ok) {
        const mode = modeOfWsdl(body);
        if (mode) return mode;
        throw new ConfigError([
          `TRANSACTION_SERVICE_MODE: ${url} is not the WSDL of a Transaction Service (no GetHostedPaymentDetails and ProcessTransaction)`,
        ]);
      }
      last = `HTTP ${res.status}`;
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      last = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() + wait > until) break;
    await new Promise((r) => setTimeout(r, wait));
  }
  throw new ConfigError([
    `TRANSACTION_SERVICE_MODE: auto could not read ${url} (${last}); start the service first or set payframe or spec`,
  ]);
}

export interface CheckoutPort {
  mode: ServiceMode;
  port: TransactionService<CallContext>;
  signer: Signer;
  /** How long after an attempt starts its pay calls may still be answered (deps.callLimitMs). */
  callLimitMs: number;
}

/**
 * Spec mode: after its own two calls (GetHostedPaymentDetails, then ProcessTransaction, each up to
 * the time limit), this long is left to a foreign service still at work on a charge before its
 * history is taken to say all.
 */
export const SPEC_GRACE_MS = 5_000;

/** The credential's headers for the WSDL read (the SOAP client sends its own on every call). */
function credentialHeaders(auth: ForeignAuth): Record<string, string> | undefined {
  if (auth.kind === 'header') return { [auth.name]: auth.value };
  if (auth.kind === 'basic')
    return {
      authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64')}`,
    };
  return undefined;
}

/** The checkout role's port, signer and mode, as the configuration asks. */
export async function checkoutPort(
  config: Config,
  db: Database,
  log: FastifyBaseLogger,
): Promise<CheckoutPort> {
  const url = config.transactionServiceUrl!;
  const ts = config.transactionService;
  const auth: ForeignAuth =
    ts.auth.kind === 'service'
      ? { kind: 'basic', username: 'service', password: config.gatewayServiceKey ?? '' }
      : ts.auth;
  const mode =
    ts.mode === 'auto'
      ? await detectServiceMode(url, {
          timeoutMs: config.transactionServiceTimeoutMs,
          headers: credentialHeaders(auth),
        })
      : ts.mode;
  if (mode === 'payframe') {
    const port = remoteTransactionService({
      baseUrl: url,
      namespace: config.soapNamespace,
      serviceKey: config.gatewayServiceKey!,
      timeoutMs: config.transactionServiceTimeoutMs,
    });
    return {
      mode,
      port,
      signer: portSigner(port, log),
      callLimitMs: config.transactionServiceTimeoutMs + 1000,
    };
  }
  const callLimitMs = 2 * config.transactionServiceTimeoutMs + 1000 + SPEC_GRACE_MS;
  // Recovery may take up an attempt sooner (STALE_PAYMENT_SECONDS): the adapter answers it "in
  // progress" until this has passed (spec-port.ts), so nothing is concluded early.
  const port = specTransactionService({
    service: {
      baseUrl: url,
      namespace: config.soapNamespace,
      soapVersion: ts.soapVersion,
      auth,
      timeoutMs: config.transactionServiceTimeoutMs,
    },
    db,
    box: specSecretBox(config.checkoutSecret!),
    approvedCodes: new Set(ts.approvedCodes),
    callLimitMs,
  });
  return { mode, port, signer: portSigner(port, log), callLimitMs };
}
