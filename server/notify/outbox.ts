/**
 * The dev outbox: the notifier's default transport, a table in the database
 * (`notification_outbox`, migration 0008). Developers, the demo and the end-to-end tests read what
 * "was sent" at `GET /dev/outbox` (dev-outbox-routes.ts), which does not exist in production.
 */
import type { Queryable } from '../db/database.ts';
import type { Channel, NotificationMessage, Purpose } from './message.ts';
import type { Transport } from './transport.ts';

export interface OutboxMessage {
  id: string;
  channel: Channel;
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
  purpose: Purpose;
  createdAt: Date;
}

interface OutboxRow {
  id: string;
  channel: Channel;
  recipient: string;
  subject: string | null;
  body_text: string;
  body_html: string | null;
  purpose: Purpose;
  created_at: Date;
}

export function outboxTransport(db: Queryable): Transport {
  return {
    name: 'outbox',
    async deliver(m: NotificationMessage): Promise<string> {
      const { rows } = await db.query<{ id: string }>(
        `insert into notification_outbox (channel, recipient, subject, body_text, body_html, purpose)
         values ($1, $2, $3, $4, $5, $6) returning id`,
        [m.channel, m.to, m.subject ?? null, m.text, m.html ?? null, m.purpose],
      );
      return `outbox:${rows[0]?.id}`;
    },
  };
}

/** Messages in the outbox, newest first; only those to `to` (case-insensitive) when given. */
export async function listOutbox(
  db: Queryable,
  options: { to?: string; limit?: number } = {},
): Promise<OutboxMessage[]> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 200);
  const to = options.to?.trim();
  const { rows } = to
    ? await db.query<OutboxRow>(
        'select * from notification_outbox where lower(recipient) = lower($1) order by id desc limit $2',
        [to, limit],
      )
    : await db.query<OutboxRow>('select * from notification_outbox order by id desc limit $1', [limit]);
  return rows.map((r) => ({
    id: String(r.id),
    channel: r.channel,
    to: r.recipient,
    subject: r.subject,
    text: r.body_text,
    html: r.body_html,
    purpose: r.purpose,
    createdAt: r.created_at,
  }));
}
