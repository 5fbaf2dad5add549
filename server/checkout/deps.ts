/**
 * What the checkout server needs, passed in once (STYLE.md §6: no `process.env` here). The gateway
 * is reached ONLY through the TransactionService port, so the same code runs in-process or over
 * SOAP (DESIGN.md "Parts and how data flows").
 */
import type { FastifyBaseLogger } from 'fastify';
import type { TransactionService } from '../../shared/contract/service.ts';
import type { Database } from '../db/database.ts';
import type { CallContext } from '../gateway/port.ts';
import type { Notifier } from '../notify/notifier.ts';
import type { Contexts } from './contexts.ts';
import type { MemoryRateLimiter, RateLimits } from './rate-limit.ts';
import type { Signer } from './signer.ts';
import type { ThreeDsResults } from './three-ds-results.ts';

export interface WebhookOptions {
  /** Time for one delivery, answer included. Default 10 000 ms. */
  timeoutMs?: number;
  /** First retry after this long, doubling each time (capped at 6 h). Default 30 000 ms. */
  baseDelayMs?: number;
  /** Deliveries tried before an event is abandoned. Default 12 (about a day and a half). */
  maxAttempts?: number;
  /** Allow webhook URLs that resolve to loopback/private addresses (development and tests only). */
  allowPrivateNetworks?: boolean;
}

export interface CheckoutOptions {
  db: Database;
  port: TransactionService<CallContext>;
  /**
   * What the port's adapter is (service-mode.ts): Payframe's extensions, or the spec's operations
   * only, where the page offers no cancel and no removal of saved cards. Default `payframe`.
   */
  serviceMode?: 'payframe' | 'spec';
  /**
   * Keys the fingerprints of idempotent requests (≥ 32 bytes). It must be the same on every
   * instance and across restarts, or a replayed request would look like a different one.
   */
  secret: Buffer;
  /** Signs redirects and webhooks under the merchant's TransactionKey (signer.ts). */
  signer: Signer;
  /** This server's public address (PUBLIC_URL): its origin is the only accepted `Origin`. */
  publicUrl: string;
  log: FastifyBaseLogger;
  now?: () => Date;
  limits?: Partial<RateLimits>;
  /**
   * An attempt still `started` after this long is resolved by recovery. It must exceed the longest
   * a PayCheckoutSession call can take (the SOAP client's limit is 15 s). Default 40 000 ms.
   */
  staleAttemptMs?: number;
  webhooks?: WebhookOptions;
  /** How the checkout's calls present themselves to the gateway (defaults: contexts.ts). */
  contexts?: Partial<Contexts>;
  /** Where 3-D Secure results are read for the widget (three-ds-results.ts); none: 404. */
  threeDs?: ThreeDsResults;
  /** What this process writes on the attempts it starts (server/instance.ts `owner`); null or unset: none. */
  instanceOwner?: string | null;
  /**
   * How long a PayCheckoutSession sent by a process that has since died may still reach the gateway:
   * 0 in process (the call dies with it), the SOAP client's limit and a second over the network. A
   * predecessor's attempt younger than this is left to later runs (server/instance.ts).
   */
  callLimitMs?: number;
  /**
   * Sends the receipt e-mails the payments queue (server/notify/receipt-queue.ts), from the
   * background work and just after a payment; none: they wait in the queue for an instance that has one.
   */
  notifier?: Notifier;
}

export type { CallOrigin, Contexts } from './contexts.ts';

export interface CheckoutDeps {
  db: Database;
  port: TransactionService<CallContext>;
  serviceMode: 'payframe' | 'spec';
  secret: Buffer;
  signer: Signer;
  publicOrigin: string;
  publicUrl: string;
  log: FastifyBaseLogger;
  now: () => Date;
  limits: RateLimits;
  /** This instance's counters for the limits memory is enough for (rate-limit.ts). */
  memoryLimits: MemoryRateLimiter;
  staleAttemptMs: number;
  webhooks: Required<WebhookOptions>;
  contexts: Contexts;
  threeDs: ThreeDsResults | null;
  instanceOwner: string | null;
  callLimitMs: number;
  notifier: Notifier | null;
}
