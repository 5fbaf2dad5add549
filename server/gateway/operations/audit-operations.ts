/**
 * ListAuditEvents (issue 16): a merchant reads the audit log of its own users — sign-ins, failures,
 * lock-outs, second factors, and every change a user made through the Transaction Service — who,
 * what, when, from where and how it ended. A merchant only, and only events whose actor or resource
 * is one of its users: another merchant's events are never answered, whatever the filter.
 */
import type { AuditOutcome } from '../../../shared/contract/extensions.ts';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import type { ValueOf } from '../../../shared/contract/values.ts';
import { PayframeError } from '../../errors.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import { type AuditRow, auditPage, merchantUserRefs } from '../users/audit-log.ts';
import { instantOf, limitOf } from './payment-operations.ts';

type Entry = ValueOf<'AuditEventEntry'>;

const MAX_TEXT = 100;
const OUTCOME: Record<AuditRow['outcome'], AuditOutcome> = {
  success: 'Success',
  failure: 'Failure',
  info: 'Info',
};
const OUTCOME_FILTER: Record<AuditOutcome, AuditRow['outcome']> = {
  Success: 'success',
  Failure: 'failure',
  Info: 'info',
};

function textOf(value: string | null | undefined, field: string): string | null {
  const text = value?.trim() || null;
  if (text && text.length > MAX_TEXT)
    throw new PayframeError('invalid_request', `${field} must be at most ${MAX_TEXT} characters.`);
  return text;
}

/** Who acted: one of the merchant's users by name, or what the row says (`anonymous`, `cli`). */
function actorOf(actor: string, names: ReadonlyMap<string, string>): string {
  if (names.has(actor)) return names.get(actor)!;
  return actor.startsWith('merchant_user:') ? 'unknown' : actor;
}

function entryOf(e: AuditRow, names: ReadonlyMap<string, string>): Entry {
  const subject = e.resource && e.resource !== e.actor ? names.get(e.resource) : undefined;
  return {
    EventID: e.id,
    OccurredAt: e.occurredAt.toISOString(),
    Actor: actorOf(e.actor, names),
    Action: e.action,
    Outcome: OUTCOME[e.outcome],
    Origin: e.origin ?? undefined,
    Subject: subject,
    Detail: Object.keys(e.detail)
      .sort()
      .map((name) => ({ Name: name, Value: String(e.detail[name]) })),
  };
}

export async function listAuditEvents(
  params: OperationParams<'ListAuditEvents'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'ListAuditEvents'>> {
  if (call.principal.kind !== 'merchant')
    throw new PayframeError('forbidden', "ListAuditEvents answers a merchant about its own users' events.");
  const f = params.filter ?? {};
  const limit = limitOf(f.Limit);
  const before = f.StartingAfter?.trim() || null;
  if (before && !/^\d{1,18}$/.test(before))
    throw new PayframeError('invalid_request', 'StartingAfter must be an EventID.');
  // Every user of the merchant names its actors; the filter's user narrows the events read.
  const names = await merchantUserRefs(deps.db, call.principal.merchantId);
  const userName = textOf(f.UserName, 'UserName');
  const users = userName
    ? [...names].filter(([, name]) => name.toLowerCase() === userName.toLowerCase()).map(([ref]) => ref)
    : null;
  const page = await auditPage(deps.db, call.principal.merchantId, {
    users,
    actionPrefix: textOf(f.ActionPrefix, 'ActionPrefix'),
    outcome: f.Outcome ? OUTCOME_FILTER[f.Outcome] : null,
    occurredFrom: instantOf(f.OccurredFrom, 'OccurredFrom'),
    occurredBefore: instantOf(f.OccurredBefore, 'OccurredBefore'),
    before,
    limit,
  });
  return { Events: page.events.map((e) => entryOf(e, names)), HasMore: page.hasMore };
}

export const AUDIT_HANDLERS = { ListAuditEvents: listAuditEvents };
