/**
 * Audit events for merchant users (security-requirements.md PCI-10-1, PCI-10-2): sign-ins and
 * failed sign-ins, lock-outs, reset requests, password changes, user creation — who, what, when,
 * from where, on which user, and the outcome. `detail` never holds a password, a token or a user
 * name typed for an unknown user (it may be a password typed in the wrong field).
 */
import type { Queryable } from '../../db/database.ts';

export interface AuditEvent {
  /** `merchant_user:<id>`, `anonymous`, `cli`. */
  actor: string;
  action:
    | 'user.created'
    | 'user.login'
    | 'user.locked'
    | 'user.password_reset_requested'
    | 'user.password_reset'
    | 'user.second_factor'
    | 'user.second_factor_enrolled'
    | 'user.logout'
    // An invitation to a merchant's team accepted: the user it made is actor and resource.
    | 'user.invitation_accepted'
    // A state-changing Transaction Service call made by a signed-in user (the dashboard):
    // `operation.<name>`, with what it acted on in `resource` and its outcome.
    | `operation.${string}`
    // A user read the audit log (ListAuditEvents; PCI DSS 10.2.1.3), allowed or refused.
    | 'audit_log.read';
  /** `merchant_user:<id>` when a user is concerned. */
  resource?: string | null;
  outcome: 'success' | 'failure' | 'info';
  /** The caller's address. */
  origin?: string | null;
  detail?: Record<string, string | number | boolean>;
  at: Date;
}

export const userResource = (id: string) => `merchant_user:${id}`;

export async function recordAudit(q: Queryable, e: AuditEvent): Promise<void> {
  await q.query(
    `insert into audit_events (occurred_at, actor, action, resource, outcome, origin, detail)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      e.at,
      e.actor,
      e.action,
      e.resource ?? null,
      e.outcome,
      e.origin ?? null,
      JSON.stringify(e.detail ?? {}),
    ],
  );
}
