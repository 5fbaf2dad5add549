/**
 * The merchant dashboard's webhook deliveries (issue 16, Developers): the merchant's deliveries,
 * each with what its last attempt met (status, duration, the answer's first 1 KB), a resend of one
 * (same id, a new attempt now) and a test event (`payframe.test`) to the merchant's endpoint; the
 * gateway has said the user may (AuthorizeWebhookDelivery) before any of it. The outbox and the
 * delivery worker are webhooks.ts's.
 */
import type { Queryable } from '../db/database.ts';
import type { CheckoutDeps } from './deps.ts';
import { deliverWebhooks, enqueueEvent, type EventInput, TEST_EVENT_TYPE } from './webhooks.ts';

/** One event as the merchant dashboard shows it: its delivery and what the last attempt met. */
export interface WebhookDelivery {
  id: string;
  type: EventInput['type'];
  state: 'pending' | 'delivered' | 'abandoned';
  attempts: number;
  createdAt: Date;
  deliveredAt: Date | null;
  /** When the next try is due; null once delivered or abandoned. */
  nextAttemptAt: Date | null;
  /** The session it reports; null for a test event. */
  sessionToken: string | null;
  url: string;
  /** The last attempt's HTTP status; null before any, or when it got no answer (see lastError). */
  lastStatus: number | null;
  lastDurationMs: number | null;
  lastAttemptAt: Date | null;
  lastError: string | null;
}

/** A delivery with its request body and the first 1 KB of the last answer (the dashboard's detail). */
export interface WebhookDeliveryDetail extends WebhookDelivery {
  payload: string;
  responseHead: string | null;
}

const DELIVERY_COLUMNS = `id, type, state, attempts, created_at, delivered_at, next_attempt_at, session_token, url,
  last_status, last_duration_ms, last_attempt_at, last_error`;

interface DeliveryRow {
  id: string;
  type: EventInput['type'];
  state: WebhookDelivery['state'];
  attempts: number;
  created_at: Date | string;
  delivered_at: Date | string | null;
  next_attempt_at: Date | string;
  session_token: string | null;
  url: string;
  last_status: number | null;
  last_duration_ms: number | null;
  last_attempt_at: Date | string | null;
  last_error: string | null;
}

function deliveryOf(r: DeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    type: r.type,
    state: r.state,
    attempts: Number(r.attempts),
    createdAt: new Date(r.created_at),
    deliveredAt: r.delivered_at === null ? null : new Date(r.delivered_at),
    nextAttemptAt: r.state === 'pending' ? new Date(r.next_attempt_at) : null,
    sessionToken: r.session_token,
    url: r.url,
    lastStatus: r.last_status === null ? null : Number(r.last_status),
    lastDurationMs: r.last_duration_ms === null ? null : Number(r.last_duration_ms),
    lastAttemptAt: r.last_attempt_at === null ? null : new Date(r.last_attempt_at),
    lastError: r.last_error,
  };
}

/** The events of one of the merchant's sessions, oldest first (the dashboard's payment page). */
export async function webhookDeliveriesOf(
  q: Queryable,
  merchantId: string,
  sessionToken: string,
): Promise<WebhookDelivery[]> {
  const { rows } = await q.query<DeliveryRow>(
    `select ${DELIVERY_COLUMNS}
     from checkout_webhook_events where merchant_id = $1 and session_token = $2
     order by created_at, id`,
    [merchantId, sessionToken],
  );
  return rows.map(deliveryOf);
}

/** Where a page of deliveries starts: just after this event (the previous page's last). */
export interface DeliveryCursor {
  createdAt: string;
  id: string;
}

/**
 * A page of the merchant's deliveries (all its sessions and test events), newest first, walking
 * (merchant_id, created_at desc, id desc) (migration 0033). `after` is the previous page's last
 * event id; one of another merchant's, or none, starts from the newest.
 */
export async function webhookDeliveryPage(
  q: Queryable,
  merchantId: string,
  options: { after?: string | null; limit: number },
): Promise<{ deliveries: WebhookDelivery[]; hasMore: boolean }> {
  let cursor: DeliveryCursor | null = null;
  if (options.after) {
    // created_at as the database keeps it (microseconds), so the cursor skips nothing.
    const { rows } = await q.query<{ created_at: string; id: string }>(
      'select created_at::text as created_at, id from checkout_webhook_events where id = $1 and merchant_id = $2',
      [options.after, merchantId],
    );
    cursor = rows[0] ? { createdAt: rows[0].created_at, id: rows[0].id } : null;
    if (!cursor) return { deliveries: [], hasMore: false };
  }
  const { rows } = await q.query<DeliveryRow>(
    cursor
      ? `select ${DELIVERY_COLUMNS} from checkout_webhook_events
         where merchant_id = $1 and (created_at, id) < ($3::timestamptz, $4)
         order by created_at desc, id desc limit $2`
      : `select ${DELIVERY_COLUMNS} from checkout_webhook_events
         where merchant_id = $1 order by created_at desc, id desc limit $2`,
    cursor ? [merchantId, options.limit + 1, cursor.createdAt, cursor.id] : [merchantId, options.limit + 1],
  );
  return { deliveries: rows.slice(0, options.limit).map(deliveryOf), hasMore: rows.length > options.limit };
}

/** One of the merchant's deliveries with its body and the last answer's head; null for anyone else's. */
export async function webhookDeliveryDetail(
  q: Queryable,
  merchantId: string,
  id: string,
): Promise<WebhookDeliveryDetail | null> {
  const { rows } = await q.query<DeliveryRow & { payload: string; last_response_head: string | null }>(
    `select ${DELIVERY_COLUMNS}, payload, last_response_head
     from checkout_webhook_events where id = $1 and merchant_id = $2`,
    [id, merchantId],
  );
  const r = rows[0];
  return r ? { ...deliveryOf(r), payload: r.payload, responseHead: r.last_response_head } : null;
}

/**
 * Resends one of the merchant's events now (the dashboard's Resend): the same id and body, a new
 * attempt at once whatever its state (delivered, pending or abandoned), signed afresh. Answers the
 * delivery after the attempt; null for an event that is not the merchant's. An attempt already
 * running (another instance's lease) is not doubled: the event is left due, sent by the next run.
 */
export async function resendWebhook(
  deps: CheckoutDeps,
  merchantId: string,
  id: string,
): Promise<WebhookDeliveryDetail | null> {
  const now = deps.now();
  const { rowCount } = await deps.db.query(
    `update checkout_webhook_events set state = 'pending', next_attempt_at = $3
     where id = $1 and merchant_id = $2`,
    [id, merchantId, now],
  );
  if (rowCount !== 1) return null;
  await deliverWebhooks(deps, { ids: [id], limit: 1 });
  return webhookDeliveryDetail(deps.db, merchantId, id);
}

/** Sends a `payframe.test` event to the merchant's endpoint now; it is listed like the rest. */
export async function sendTestWebhook(
  deps: CheckoutDeps,
  merchantId: string,
  url: string,
): Promise<WebhookDeliveryDetail> {
  const id = await enqueueEvent(deps.db, { type: TEST_EVENT_TYPE, url, merchantId }, deps.now());
  await deliverWebhooks(deps, { ids: [id], limit: 1 });
  const detail = await webhookDeliveryDetail(deps.db, merchantId, id);
  if (!detail) throw new Error('The test event was not recorded.');
  return detail;
}
