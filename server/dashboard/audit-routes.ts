/**
 * The merchant's audit log in the dashboard (issue 16 "Team": who did what when from which
 * address), read through the Transaction Service as the signed-in user: ListAuditEvents answers its
 * own merchant's users' events only. Nothing here changes the log; it is append-only (migration
 * 0030, docs/deployment.md "The audit log").
 *
 *   GET  /audit-log              ListAuditEvents (filters: action, user, outcome, from, to, limit, after)
 *   GET  /audit-log/export.csv   ListAuditEvents, every page, streamed (formula-safe, payments-csv.ts)
 *
 * Days are UTC calendar days and `to` is inclusive, as the payments list's.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AuditOutcome } from '../../shared/contract/extensions.ts';
import type { OperationResult } from '../../shared/contract/service.ts';
import type { ValueOf } from '../../shared/contract/values.ts';
import { parseOr400 } from '../checkout/field-errors.ts';
import { day } from './payment-filter.ts';
import { CSV_PAGE_SIZE, csvRow } from './payments-csv.ts';
import { type DashboardDeps, verified } from './user-context.ts';

type AuditFilter = ValueOf<'AuditEventFilter'>;
type AuditPage = OperationResult<'ListAuditEvents'>;
type Entry = ValueOf<'AuditEventEntry'>;

export const AuditQuery = z.strictObject({
  action: z.string().trim().max(100).optional(),
  user: z.string().trim().max(100).optional(),
  outcome: z.enum(AuditOutcome.values).optional(),
  from: day('from').optional(),
  to: day('to').optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  after: z
    .string()
    .regex(/^[1-9]\d{0,17}$/, 'after must be an event id.')
    .optional(),
});

export function auditFilter(query: unknown): AuditFilter {
  const q = parseOr400(AuditQuery, query ?? {});
  const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString();
  return {
    ActionPrefix: q.action || undefined,
    UserName: q.user || undefined,
    Outcome: q.outcome,
    OccurredFrom: q.from ? new Date(`${q.from}T00:00:00Z`).toISOString() : undefined,
    OccurredBefore: q.to ? nextDay(q.to) : undefined,
    Limit: q.limit,
    StartingAfter: q.after,
  };
}

export interface AuditEventView {
  id: string;
  at: string;
  actor: string;
  action: string;
  outcome: AuditOutcome;
  origin: string | null;
  subject: string | null;
  detail: { name: string; value: string }[];
}

export function auditEventView(e: Entry): AuditEventView {
  return {
    id: e.EventID,
    at: new Date(e.OccurredAt).toISOString(),
    actor: e.Actor,
    action: e.Action,
    outcome: e.Outcome,
    origin: e.Origin ?? null,
    subject: e.Subject ?? null,
    detail: (e.Detail ?? []).map((d) => ({ name: d.Name, value: d.Value })),
  };
}

export const AUDIT_CSV_HEADER = [
  'event_id',
  'occurred_at',
  'actor',
  'action',
  'outcome',
  'origin',
  'subject',
  'detail',
];

/** One event as a CSV line; its detail as `name=value` pairs joined by `; `. */
function auditCsvRow(e: AuditEventView): string {
  const detail = e.detail.map((d) => `${d.name}=${d.value}`).join('; ');
  return csvRow([e.id, e.at, e.actor, e.action, e.outcome, e.origin, e.subject, detail]);
}

/** The export from its first page on (fetched by the caller, so a refusal answers before any byte). */
function auditCsv(
  first: AuditPage,
  filter: AuditFilter,
  next: (f: AuditFilter) => Promise<AuditPage>,
): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield csvRow(AUDIT_CSV_HEADER);
    let page = first;
    for (;;) {
      const events = page.Events ?? [];
      for (const e of events) yield auditCsvRow(auditEventView(e));
      const last = events.at(-1);
      if (!page.HasMore || !last) return;
      page = await next({ ...filter, Limit: CSV_PAGE_SIZE, StartingAfter: last.EventID });
    }
  }
  return Readable.from(lines());
}

async function exportCsv(deps: DashboardDeps, request: FastifyRequest, reply: FastifyReply) {
  const user = await verified(deps, request);
  const filter: AuditFilter = { ...auditFilter(request.query), Limit: CSV_PAGE_SIZE };
  const list = (f: AuditFilter) => deps.checkout.port.ListAuditEvents({ filter: f }, user.context);
  const first = await list(filter);
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', 'attachment; filename="audit-log.csv"')
    .send(
      auditCsv(first, filter, list).on('error', (err) => request.log.warn({ err }, 'audit export cut short')),
    );
}

export async function auditRoutes(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.get('/audit-log', async (request) => {
    const user = await verified(deps, request);
    const page = await deps.checkout.port.ListAuditEvents(
      { filter: auditFilter(request.query) },
      user.context,
    );
    return { events: (page.Events ?? []).map(auditEventView), hasMore: page.HasMore };
  });
  app.get('/audit-log/export.csv', (request, reply) => exportCsv(deps, request, reply));
}
