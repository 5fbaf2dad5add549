/**
 * What a signed-in merchant user changed through the Transaction Service (the dashboard, issue 15):
 * every state-changing call a user makes is recorded in `audit_events` with the user as its actor,
 * whichever operation it was (refund, void, capture, settle, a payment link made or canceled),
 * successful or refused. Only references (transaction ids, the merchant's order number), amounts
 * and outcomes are kept: a fixed list of field names, never card data, tokens or other text.
 */
import { changesState } from '../../../shared/contract/effects.ts';
import type { OperationName } from '../../../shared/contract/operations.ts';
import { PayframeError } from '../../errors.ts';
import type { Queryable } from '../../db/database.ts';
import type { SignedInUser } from '../port.ts';
import { OPERATION_ACCESS } from '../principal.ts';
import { recordAudit, userResource } from './audit.ts';

/** The fields worth keeping, looked up in the request and its answer (one level of nesting). */
const KEPT = [
  'TransactionType',
  'OriginalTransactionID',
  'TransactionID',
  'Amount',
  'OrderNumber',
  'ResponseCode',
  'SettlementID',
  'BatchNumber',
  'Success',
  'Status',
  // The team's changes (issue 16): which role, which invitation; the user is the event's subject.
  'Role',
  'InvitationID',
  'invitationID',
  'role',
  // A webhook resend or test event (AuthorizeWebhookDelivery): which kind, which event.
  'kind',
  'eventID',
] as const;

function keptFields(value: unknown, into: Record<string, string | number | boolean>): void {
  if (value === null || typeof value !== 'object') return;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if ((KEPT as readonly string[]).includes(key) && ['string', 'number', 'boolean'].includes(typeof v)) {
      into[key] = v as string | number | boolean;
    } else if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      keptFields(v, into);
    }
  }
}

/**
 * Whether a user's call of this operation is recorded: changes, not the session's own ones; and
 * every read of the audit log itself (PCI DSS 10.2.1.3: access to the audit logs is logged).
 */
export function auditsUserCall(operation: OperationName): boolean {
  if (operation === 'ListAuditEvents') return true;
  return changesState(operation) && OPERATION_ACCESS[operation] !== 'user' && operation !== 'Login';
}

export async function recordUserCall(
  db: Queryable,
  user: SignedInUser,
  operation: OperationName,
  origin: string,
  at: Date,
  params: unknown,
  outcome: { result: unknown } | { error: unknown },
  /** The merchant user the call acted on (`GatewayCall.auditSubject`), as the event's resource. */
  subjectUserId?: string,
): Promise<void> {
  const detail: Record<string, string | number | boolean> = {};
  keptFields(params, detail);
  if ('result' in outcome) keptFields(outcome.result, detail);
  else detail.error = outcome.error instanceof PayframeError ? outcome.error.code : 'internal';
  await recordAudit(db, {
    actor: userResource(user.userId),
    // A read of the log is no change: its own action, apart from `operation.*`.
    action: operation === 'ListAuditEvents' ? 'audit_log.read' : `operation.${operation}`,
    resource: subjectUserId ? userResource(subjectUserId) : null,
    outcome: 'result' in outcome ? 'success' : 'failure',
    origin,
    detail,
    at,
  });
}
