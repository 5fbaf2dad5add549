/**
 * The audit log as its merchant reads it (ListAuditEvents, issue 16): the events whose actor or
 * resource is one of the merchant's users, newest first, a page at a time after an event id. The
 * database names each event's merchant as it is inserted (migration 0030), so a page is read
 * through the merchant's own index, never by a scan of every merchant's events. audit_events is
 * append-only: nothing here or elsewhere updates or deletes it (audit-append-only.test.ts), and the
 * database refuses to (migration 0030).
 */
import type { Queryable } from '../../db/database.ts';
import { userResource } from './audit.ts';

export interface AuditQuery {
  /** Only the events by or about these users (`merchant_user:<id>`); null: every user's. */
  users: readonly string[] | null;
  actionPrefix: string | null;
  outcome: 'success' | 'failure' | 'info' | null;
  occurredFrom: Date | null;
  occurredBefore: Date | null;
  /** Events older than this id (the last of the page before). */
  before: string | null;
  limit: number;
}

export interface AuditRow {
  id: string;
  occurredAt: Date;
  /** The actor as recorded: `merchant_user:<id>`, `anonymous`, `cli`. */
  actor: string;
  action: string;
  resource: string | null;
  outcome: 'success' | 'failure' | 'info';
  origin: string | null;
  detail: Record<string, unknown>;
}

/** The merchant's users by their audit reference (`merchant_user:<id>` → user name). */
export async function merchantUserRefs(q: Queryable, merchantId: string): Promise<Map<string, string>> {
  const { rows } = await q.query<{ id: string; username: string }>(
    `select id::text as id, username from merchant_users where merchant_id = $1`,
    [merchantId],
  );
  return new Map(rows.map((r) => [userResource(r.id), r.username]));
}

/** `like` text matching `prefix` literally, then anything. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One page of the merchant's events (by or about its users), newest first, and whether more
 * follow: walks audit_events_merchant_newest, or audit_events_merchant_outcome for one outcome,
 * from the cursor down (migration 0030).
 */
export async function auditPage(
  q: Queryable,
  merchantId: string,
  query: AuditQuery,
): Promise<{ events: AuditRow[]; hasMore: boolean }> {
  const params: unknown[] = [merchantId];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (query.users?.length === 0) return { events: [], hasMore: false };
  const where = ['e.merchant_id = $1::bigint'];
  if (query.users) {
    const users = param(query.users);
    where.push(`(e.actor = any(${users}::text[]) or e.resource = any(${users}::text[]))`);
  }
  if (query.actionPrefix) where.push(`e.action like ${param(likePrefix(query.actionPrefix))}`);
  if (query.outcome) where.push(`e.outcome = ${param(query.outcome)}`);
  if (query.occurredFrom) where.push(`e.occurred_at >= ${param(query.occurredFrom)}`);
  if (query.occurredBefore) where.push(`e.occurred_at < ${param(query.occurredBefore)}`);
  if (query.before) where.push(`e.id < ${param(query.before)}::bigint`);
  const { rows } = await q.query<{
    id: string;
    occurred_at: Date | string;
    actor: string;
    action: string;
    resource: string | null;
    outcome: AuditRow['outcome'];
    origin: string | null;
    detail: Record<string, unknown> | string;
  }>(
    `select e.id::text as id, e.occurred_at, e.actor, e.action, e.resource, e.outcome, e.origin, e.detail
       from audit_events e where ${where.join(' and ')}
      order by e.id desc limit ${param(query.limit + 1)}`,
    params,
  );
  const events = rows.slice(0, query.limit).map((r) => ({
    id: r.id,
    occurredAt: new Date(r.occurred_at),
    actor: r.actor,
    action: r.action,
    resource: r.resource,
    outcome: r.outcome,
    origin: r.origin,
    detail: typeof r.detail === 'string' ? (JSON.parse(r.detail) as Record<string, unknown>) : r.detail,
  }));
  return { events, hasMore: rows.length > query.limit };
}
