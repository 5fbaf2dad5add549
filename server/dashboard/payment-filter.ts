/**
 * The payments list's filters as the dashboard's query string carries them (`state`, `method`,
 * `from`, `to`, `q`, `limit`, `after`), read into the gateway's PaymentFilter. Days are UTC
 * calendar days and `to` is inclusive: `from=2026-11-01&to=2026-11-30` is all of November.
 */
import { z } from 'zod';
import { PaymentMethodKind, PaymentStateFilter } from '../../shared/contract/extensions.ts';
import type { ValueOf } from '../../shared/contract/values.ts';
import { parseOr400 } from '../checkout/field-errors.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A UTC calendar day as a query carries it (2026-11-24). */
export const day = (field: string) =>
  z
    .string()
    .refine(
      (v) => DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)),
      `${field} must be a date such as 2026-11-24.`,
    );

export const PaymentsQuery = z.strictObject({
  state: z.enum(PaymentStateFilter.values).optional(),
  method: z.enum(PaymentMethodKind.values).optional(),
  from: day('from').optional(),
  to: day('to').optional(),
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  after: z
    .string()
    .regex(/^[1-9]\d{0,18}$/, 'after must be a transaction id.')
    .optional(),
});
export type PaymentsQuery = z.infer<typeof PaymentsQuery>;

export type PaymentFilter = ValueOf<'PaymentFilter'>;

export function paymentFilter(query: unknown): PaymentFilter {
  const q = parseOr400(PaymentsQuery, query ?? {});
  const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString();
  return {
    State: q.state,
    PaymentMethod: q.method,
    CreatedFrom: q.from ? new Date(`${q.from}T00:00:00Z`).toISOString() : undefined,
    CreatedBefore: q.to ? nextDay(q.to) : undefined,
    Search: q.q || undefined,
    Limit: q.limit,
    StartingAfter: q.after,
  };
}
