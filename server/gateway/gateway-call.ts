/** What every gateway operation handler receives besides its parameters. */
import type { Database } from '../db/database.ts';
import type { Notifier } from '../notify/notifier.ts';
import type { CallContext } from './port.ts';
import type { Merchant, MerchantStore } from './merchants/merchant-store.ts';
import type { Principal } from './port.ts';
import type { Processor } from './processor/processor.ts';
import type { SecretBox } from './secret-box.ts';
import type { SessionState } from './users/login-sessions.ts';
import type { CheckoutSessionStore } from './sessions/checkout-session-store.ts';
import type { ThreeDsService } from './three-ds/three-ds-service.ts';
import type { CardVault } from './vault/card-vault.ts';

export interface GatewayDeps {
  db: Database;
  merchants: MerchantStore;
  /** Encrypts small secrets at rest under the vault's secret key (users' TOTP setup keys). */
  secrets: SecretBox;
  sessions: CheckoutSessionStore;
  vault: CardVault;
  processor: Processor;
  threeDs: ThreeDsService;
  /** The credential of the checkout server (DESIGN.md §6); unset: only in-process service calls. */
  serviceKey: string | undefined;
  /** Where shoppers reach this server: challenge and password-reset URLs are built on it. */
  publicUrl: string;
  /** Where shoppers reach the checkout pages (CHECKOUT_PUBLIC_URL); publicUrl when unset. */
  checkoutPublicUrl?: string;
  /** Delivers e-mail and SMS (password reset links; one-time codes): outbox, SMTP or SMS webhook. */
  notifier: Notifier;
  now: () => Date;
  /** How long a session's payment claim holds before another caller treats it as cut short. */
  claimTimeoutMs?: number;
  /** What this process writes on the claims it takes (server/instance.ts `owner`); null or unset: none. */
  instanceOwner?: string | null;
  /** Minutes without a call after which a merchant user's session ends (default 15). */
  userIdleMinutes?: number;
  /** How long a cancel waits for a held claim's verdict (claim-sweep.ts `awaitClaim`); default 5 s. */
  cancelWaitMs?: number;
}

export interface GatewayCall {
  principal: Principal;
  context: CallContext;
  /** A merchant caller's row as read when its key was checked (the same request: fresh enough). */
  merchant?: Merchant;
  /**
   * The caller's address for throttles and audit: the browser's or merchant's the checkout relays
   * for, else the connection's (auth.ts `Authenticated.clientAddress`).
   */
  clientAddress: string;
  /** A merchant user's Login session, as its token's check found it (the dashboard). */
  session?: SessionState;
  /**
   * The merchant user a user's change acts on, once the handler found it to be the merchant's own
   * (the team's operations): the audit records it as the event's subject (`resource`).
   */
  auditSubject?: string;
}

export type Handler<P, R> = (params: P, call: GatewayCall, deps: GatewayDeps) => Promise<R>;
