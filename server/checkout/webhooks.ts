/**
 * Webhooks (DESIGN.md §10; security-requirements.md REL-4; docs/merchant-guide.md "Webhooks"):
 * an outbox row is written in the same transaction as the state change it reports; a worker POSTs
 * it to the session's webhook URL until the merchant answers 2xx, backing off exponentially; the
 * state lives in the database, so a restart loses nothing, and a delivery cut short is sent again
 * with the same event id (merchants dedupe on `id`).
 *
 * Signature: `Payframe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` under
 * the merchant's webhook signing secret when it has one (one `v1` per secret in use: two for 24 hours
 * after a roll; SignWebhook, the gateway's), else under its TransactionKey (signer.ts; both keys
 * during a key roll's overlap); computed at each delivery (so `t` is the delivery time).
 *
 * What the merchant dashboard reads, resends and tests of these deliveries is in
 * webhook-deliveries.ts.
 */
import crypto from 'node:crypto';
import { maskCardNumbers } from '../../shared/card/card-number-in-text.ts';
import type { Queryable } from '../db/database.ts';
import type { Decline, Payment } from './records.ts';
import type { CheckoutDeps } from './deps.ts';
import { postWebhook, RESPONSE_HEAD_BYTES } from './webhook-http.ts';

export const SIGNATURE_HEADER = 'payframe-signature';
const MAX_DELAY_MS = 6 * 60 * 60 * 1000;

/** The type of the event the dashboard's Send test event makes (no session, no payment). */
export const TEST_EVENT_TYPE = 'payframe.test';

export type EventInput =
  | { type: 'payment.succeeded'; url: string; payment: Payment }
  | { type: typeof TEST_EVENT_TYPE; url: string; merchantId: string }
  | ({ type: 'payment.failed'; url: string } & Decline)
  | {
      type: 'checkout.session.canceled';
      url: string;
      sessionToken: string;
      merchantId: string;
      currency: string;
      canceledAt: Date;
      amount: string | null;
      orderNumber: string | null;
    }
  | {
      type: 'checkout.session.expired';
      url: string;
      sessionToken: string;
      merchantId: string;
      currency: string;
      expiresAt: Date;
      amount: string | null;
      orderNumber: string | null;
    };

function eventOf(input: EventInput): {
  sessionToken: string | null;
  merchantId: string;
  data: Record<string, unknown>;
} {
  switch (input.type) {
    case TEST_EVENT_TYPE:
      return {
        sessionToken: null,
        merchantId: input.merchantId,
        data: { message: 'A test event sent from the Payframe dashboard.' },
      };
    case 'payment.succeeded': {
      const p = input.payment;
      return {
        sessionToken: p.sessionToken,
        merchantId: p.merchantId,
        data: {
          token: p.sessionToken,
          status: 'paid',
          orderNumber: p.orderNumber,
          amount: p.amount,
          currency: p.currency,
          transactionId: p.transactionId,
          approvalCode: p.approvalCode,
          maskedCard: p.maskedCard,
          paidAt: p.paidAt.toISOString(),
        },
      };
    }
    case 'payment.failed': {
      const a = input.attempt;
      const s = input.snapshot;
      return {
        sessionToken: a.sessionToken,
        merchantId: s.merchantId,
        data: {
          token: a.sessionToken,
          status: 'open',
          orderNumber: s.orderNumber,
          amount: s.amount,
          currency: s.currency,
          transactionId: input.decline.transactionId,
          responseCode: input.decline.code,
          message: input.decline.message,
        },
      };
    }
    case 'checkout.session.canceled':
      return {
        sessionToken: input.sessionToken,
        merchantId: input.merchantId,
        data: {
          token: input.sessionToken,
          status: 'canceled',
          orderNumber: input.orderNumber,
          amount: input.amount,
          currency: input.currency,
          canceledAt: input.canceledAt.toISOString(),
        },
      };
    case 'checkout.session.expired':
      return {
        sessionToken: input.sessionToken,
        merchantId: input.merchantId,
        data: {
          token: input.sessionToken,
          status: 'expired',
          orderNumber: input.orderNumber,
          amount: input.amount,
          currency: input.currency,
          expiresAt: input.expiresAt.toISOString(),
        },
      };
  }
}

/** Writes an event to the outbox; call it inside the transaction of the state change. */
export async function enqueueEvent(q: Queryable, input: EventInput, now: Date): Promise<string> {
  const id = `evt_${crypto.randomBytes(16).toString('base64url')}`;
  const { sessionToken, merchantId, data } = eventOf(input);
  // Every text in it passed the card-number rule where it came in (the API, the gateway); masking
  // with the same detector keeps a body written before that rule from carrying one to a merchant.
  const payload = maskCardNumbers(
    JSON.stringify({ id, type: input.type, created: Math.floor(now.getTime() / 1000), data }),
  );
  await q.query(
    `insert into checkout_webhook_events (id, session_token, merchant_id, url, type, payload, next_attempt_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $7)`,
    [id, sessionToken, merchantId, input.url, input.type, payload, now],
  );
  return id;
}

/** The delay before delivery number `attempts + 1`: base, 2×base, 4×base, … capped at 6 h. */
export function retryDelayMs(baseMs: number, attempts: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_DELAY_MS);
}

/**
 * The signatures of `<t>.<payload>`: under the merchant's webhook secrets when it has any (the
 * gateway's SignWebhook, current first), else under its TransactionKey (the checkout's signer).
 */
async function webhookSignatures(deps: CheckoutDeps, merchantId: string, text: string): Promise<string[]> {
  const context = deps.contexts.service({
    requestId: 'checkout-webhooks',
    remoteAddress: '127.0.0.1',
    log: deps.log,
  });
  const r = await deps.port.SignWebhook({ merchantID: merchantId, message: text }, context);
  if (!r.Success) throw new Error(`The gateway did not sign: ${r.Message ?? 'no reason given'}`);
  const own = r.Signatures ?? [];
  if (own.some((v) => !/^[0-9a-f]{64}$/.test(v))) throw new Error('The gateway answered no valid signature.');
  if (own.length > 0) return own;
  // During a TransactionKey roll's overlap, one `v1` per key, the new key's first (signer.ts).
  return deps.signer.signAll(merchantId, text);
}

export async function signatureHeader(deps: CheckoutDeps, merchantId: string, payload: string, now: Date) {
  const t = Math.floor(now.getTime() / 1000);
  const signatures = await webhookSignatures(deps, merchantId, `${t}.${payload}`);
  return [`t=${t}`, ...signatures.map((v) => `v1=${v}`)].join(',');
}

interface DueEvent {
  id: string;
  merchant_id: string;
  url: string;
  payload: string;
  attempts: number;
}

/** An answer's head as stored: UTF-8 text (NUL has no place in a PostgreSQL text), card numbers masked. */
function headText(head: Buffer): string {
  return maskCardNumbers(head.subarray(0, RESPONSE_HEAD_BYTES).toString('utf8').replaceAll('\0', '\ufffd'));
}

/**
 * Delivers the events that are due, each at most once at a time across instances (a lease taken
 * with FOR UPDATE SKIP LOCKED). Answers how many were delivered and how many will be retried.
 * `ids`: only these events (the dashboard's resend and test event, due at once).
 */
export async function deliverWebhooks(
  deps: CheckoutDeps,
  options: { limit?: number; ids?: string[] } = {},
): Promise<{ delivered: number; retrying: number; abandoned: number }> {
  const now = deps.now();
  const leaseMs = deps.webhooks.timeoutMs * 2 + 5_000;
  const only = options.ids ? 'and id = any($4::text[])' : '';
  const { rows } = await deps.db.query<DueEvent>(
    `update checkout_webhook_events set lease_until = $2, attempts = attempts + 1
     where id in (
       select id from checkout_webhook_events
       where state = 'pending' and next_attempt_at <= $1 and (lease_until is null or lease_until <= $1) ${only}
       order by next_attempt_at limit $3 for update skip locked)
     returning id, merchant_id, url, payload, attempts`,
    [now, new Date(now.getTime() + leaseMs), options.limit ?? 20, ...(options.ids ? [options.ids] : [])],
  );
  const tally = { delivered: 0, retrying: 0, abandoned: 0 };
  await Promise.all(
    rows.map(async (e) => {
      let problem: string | null = null;
      let status: number | null = null;
      let head: string | null = null;
      let started = deps.now();
      try {
        const headers = {
          [SIGNATURE_HEADER]: await signatureHeader(deps, String(e.merchant_id), e.payload, deps.now()),
          'payframe-event-id': e.id,
        };
        started = deps.now();
        const answer = await postWebhook(e.url, headers, e.payload, deps.webhooks);
        status = answer.status;
        head = headText(answer.head);
        if (status < 200 || status > 299) problem = `HTTP ${status}`;
      } catch (err) {
        problem = err instanceof Error ? err.message.slice(0, 200) : 'delivery failed';
      }
      const at = deps.now();
      const last = [status, Math.max(0, at.getTime() - started.getTime()), started, head];
      if (problem === null) {
        tally.delivered++;
        await deps.db.query(
          `update checkout_webhook_events set state = 'delivered', delivered_at = $2, lease_until = null, last_error = null,
             last_status = $3, last_duration_ms = $4, last_attempt_at = $5, last_response_head = $6
           where id = $1`,
          [e.id, at, ...last],
        );
        return;
      }
      const giveUp = e.attempts >= deps.webhooks.maxAttempts;
      if (giveUp) tally.abandoned++;
      else tally.retrying++;
      deps.log.warn({ eventId: e.id, attempts: e.attempts, problem }, 'webhook delivery failed');
      await deps.db.query(
        `update checkout_webhook_events set state = $2, next_attempt_at = $3, lease_until = null, last_error = $4,
           last_status = $5, last_duration_ms = $6, last_attempt_at = $7, last_response_head = $8
         where id = $1`,
        [
          e.id,
          giveUp ? 'abandoned' : 'pending',
          new Date(at.getTime() + retryDelayMs(deps.webhooks.baseDelayMs, e.attempts)),
          problem,
          ...last,
        ],
      );
    }),
  );
  return tally;
}
