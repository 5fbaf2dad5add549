/**
 * Announces the end of unpaid sessions created over REST with a webhook URL: expired (webhook
 * `checkout.session.expired`, by a sweep) or canceled (`checkout.session.canceled`, when the cancel
 * succeeds). The announcement mark and the outbox row are written in one transaction, so
 * an expiry is announced once, whichever instance runs the sweep. A session the gateway reports
 * paid (or still open) is not announced as expired.
 */
import { paymentOfSession } from './attempts.ts';
import type { CheckoutDeps } from './deps.ts';
import { sessionDetails } from './gateway-calls.ts';
import { workerOrigin } from './recovery.ts';
import { getSessionMeta } from './session-meta.ts';
import { enqueueEvent } from './webhooks.ts';

interface Due {
  token: string;
  merchant_id: string;
  currency: string;
  expires_at: Date;
  webhook_url: string;
}

async function mark(deps: CheckoutDeps, token: string, event: Parameters<typeof enqueueEvent>[1] | null) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      'update checkout_session_meta set expiry_announced_at = $2 where token = $1 and expiry_announced_at is null',
      [token, now],
    );
    if (rowCount === 1 && event) await enqueueEvent(tx, event, now);
  });
}

/** After a successful cancel: `checkout.session.canceled`, once (the sweep then skips the session). */
export async function announceCanceled(
  deps: CheckoutDeps,
  token: string,
  session: { amount: string | null; orderNumber: string | null },
): Promise<void> {
  const meta = await getSessionMeta(deps.db, token);
  if (!meta?.webhookUrl) return;
  await mark(deps, token, {
    type: 'checkout.session.canceled',
    url: meta.webhookUrl,
    sessionToken: token,
    merchantId: meta.merchantId,
    currency: meta.currency,
    canceledAt: deps.now(),
    amount: session.amount,
    orderNumber: session.orderNumber,
  });
}

export async function announceExpiredSessions(deps: CheckoutDeps, limit = 50): Promise<number> {
  const { rows } = await deps.db.query<Due>(
    `select token, merchant_id, currency, expires_at, webhook_url from checkout_session_meta
     where expiry_announced_at is null and webhook_url is not null and expires_at <= $1
     order by expires_at limit $2`,
    [deps.now(), limit],
  );
  let announced = 0;
  for (const due of rows) {
    if (await paymentOfSession(deps.db, due.token)) {
      await mark(deps, due.token, null);
      continue;
    }
    let found: Awaited<ReturnType<typeof sessionDetails>>;
    try {
      found = await sessionDetails(deps, workerOrigin(deps.log), due.token);
    } catch (err) {
      deps.log.warn({ err }, 'session expiry: gateway unavailable');
      continue;
    }
    if (found.status === 'open') continue;
    if (found.status === 'canceled') {
      // Canceled without the checkout announcing it (e.g. CancelHostedPayment over SOAP).
      await announceCanceled(deps, due.token, {
        amount: found.detail.Amount ?? null,
        orderNumber: found.detail.OrderNumber ?? null,
      });
      continue;
    }
    if (found.status !== 'expired') {
      await mark(deps, due.token, null);
      continue;
    }
    await mark(deps, due.token, {
      type: 'checkout.session.expired',
      url: due.webhook_url,
      sessionToken: due.token,
      merchantId: String(due.merchant_id),
      currency: due.currency,
      expiresAt: due.expires_at,
      amount: found.detail.Amount ?? null,
      orderNumber: found.detail.OrderNumber ?? null,
    });
    announced++;
  }
  return announced;
}
