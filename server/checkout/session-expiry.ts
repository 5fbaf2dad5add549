/**
 * Announces the end of unpaid sessions that have a webhook URL: expired (`checkout.session.expired`,
 * by a sweep) or canceled (`checkout.session.canceled`, when a cancel succeeds, or by the sweep for
 * a cancel made elsewhere, e.g. CancelHostedPayment over SOAP). Sessions made over REST and over
 * SOAP alike: the sweep asks the gateway (ListEndedCheckoutSessions), which owns every session.
 *
 * A session ends once: its row in `checkout_session_endings` and the outbox event are written in one
 * transaction, so an end is announced once, whichever instance or path gets there first. The sweep
 * keeps a cursor (the end time of the last session it went past) and looks only at sessions that
 * ended at least `SETTLE_MS` ago, by then committed (a cancel) or beyond any payment claim (an
 * expiry); a session whose payment claim is still held stops the cursor until it is settled.
 */
import type { CheckoutDeps } from './deps.ts';
import { type GatewaySession, sessionOf } from './gateway-calls.ts';
import { workerOrigin } from './recovery.ts';
import { enqueueEvent } from './webhooks.ts';

/** Sessions that ended less than this long ago are left for a later sweep. */
export const SETTLE_MS = 2 * 60_000;
const CURSOR = 'session-endings';
const BATCH = 100;

type Ended = Pick<
  GatewaySession,
  'token' | 'merchantId' | 'currency' | 'amount' | 'orderNumber' | 'webhookUrl'
>;

async function announce(
  deps: CheckoutDeps,
  session: Ended,
  type: 'checkout.session.expired' | 'checkout.session.canceled',
  at: Date,
): Promise<boolean> {
  const url = session.webhookUrl;
  if (!url) return false;
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      `insert into checkout_session_endings (token, type, announced_at) values ($1, $2, $3)
       on conflict (token) do nothing`,
      [session.token, type, now],
    );
    if (rowCount !== 1) return false;
    const common = {
      url,
      sessionToken: session.token,
      merchantId: session.merchantId,
      currency: session.currency ?? 'USD',
      amount: session.amount,
      orderNumber: session.orderNumber,
    };
    await enqueueEvent(
      tx,
      type === 'checkout.session.canceled'
        ? { type, ...common, canceledAt: at }
        : { type, ...common, expiresAt: at },
      now,
    );
    return true;
  });
}

/** After a successful cancel: `checkout.session.canceled`, once. */
export async function announceCanceled(deps: CheckoutDeps, session: Ended): Promise<void> {
  await announce(deps, session, 'checkout.session.canceled', deps.now());
}

/** Announces the sessions that ended since the last sweep; answers how many it announced. */
export async function announceEndedSessions(deps: CheckoutDeps): Promise<number> {
  const now = deps.now();
  const { rows } = await deps.db.query<{ position: Date }>(
    'select position from checkout_sweep_cursors where name = $1',
    [CURSOR],
  );
  const since = rows[0]?.position ?? new Date(now.getTime() - 24 * 60 * 60_000);
  const before = new Date(now.getTime() - SETTLE_MS);
  if (before <= since) return 0;
  let ended: ReturnType<typeof sessionOf>[];
  try {
    const list = await deps.port.ListEndedCheckoutSessions(
      { endedAfter: since.toISOString(), endedBefore: before.toISOString(), maxCount: BATCH },
      deps.contexts.service(workerOrigin(deps.log)),
    );
    ended = list.map(sessionOf);
  } catch (err) {
    deps.log.warn({ err }, 'session endings: gateway unavailable');
    return 0;
  }
  let announced = 0;
  let position = ended.length < BATCH ? before : since;
  for (const s of ended) {
    if (s.paymentInProgress) {
      // Its payment may still succeed: come back to it (and everything after it) next time.
      position = endOf(s);
      break;
    }
    const type = s.status === 'canceled' ? 'checkout.session.canceled' : 'checkout.session.expired';
    if (await announce(deps, s, type, endOf(s))) announced++;
    position = endOf(s);
  }
  await deps.db.query(
    `insert into checkout_sweep_cursors (name, position) values ($1, $2)
     on conflict (name) do update set position = greatest(checkout_sweep_cursors.position, excluded.position)`,
    [CURSOR, position],
  );
  return announced;
}

/** When the session ended: ListEndedCheckoutSessions lists only sessions that ended, so one is set. */
function endOf(s: GatewaySession): Date {
  const end = s.canceledAt ?? s.expiresAt;
  if (!end) throw new Error('An ended checkout session without the time it ended.');
  return end;
}
