/**
 * Recurring billing (DESIGN.md §14): IsRecurring with RecurringAmount, RecurringStartDate,
 * RecurringEndDate and RecurringFrequency creates a schedule that charges a stored token.
 */
import { AmountError, fromCents, toPositiveCents } from '../../../shared/money.ts';
import type { Queryable } from '../../db/database.ts';
import { RequestProblem } from './payment-source.ts';

export const FREQUENCIES = {
  daily: { days: 1, months: 0 },
  weekly: { days: 7, months: 0 },
  biweekly: { days: 14, months: 0 },
  monthly: { days: 0, months: 1 },
  quarterly: { days: 0, months: 3 },
  semiannually: { days: 0, months: 6 },
  annually: { days: 0, months: 12 },
  yearly: { days: 0, months: 12 },
} as const;

export type Frequency = keyof typeof FREQUENCIES;

export function parseFrequency(value: string | null | undefined): Frequency {
  const f = (value ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]/g, '');
  if (!Object.hasOwn(FREQUENCIES, f)) {
    throw new RequestProblem(
      '12',
      `RecurringFrequency must be one of: ${Object.keys(FREQUENCIES).join(', ')}.`,
    );
  }
  return f as Frequency;
}

/** The next date of a schedule after `from`, in UTC (a month step keeps the day, clamped to the month's end). */
export function nextDate(from: Date, frequency: Frequency): Date {
  const { days, months } = FREQUENCIES[frequency];
  if (days) return new Date(from.getTime() + days * 86_400_000);
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

function parseDate(value: string | null | undefined, what: string): Date | null {
  if (!value || value.startsWith('0001-01-01')) return null;
  const d = new Date(/[zZ]|[+-]\d\d:\d\d$/.test(value) || value.length <= 10 ? value : `${value}Z`);
  if (Number.isNaN(d.getTime())) throw new RequestProblem('12', `${what} is not a date.`);
  return d;
}

export interface ScheduleInput {
  merchantId: string;
  cardId: string;
  token: string;
  amount: string | null | undefined;
  start: string | null | undefined;
  end: string | null | undefined;
  frequency: string | null | undefined;
  firstName?: string | null;
  lastName?: string | null;
  cardName?: string | null;
  email?: string | null;
  originTransactionId: string | null;
  now: Date;
}

export interface Schedule {
  id: string;
  amount: string;
  nextProcessDate: Date;
  endDate: Date | null;
  frequency: Frequency;
}

/** Checks the Recurring* fields before any money moves. */
export function checkSchedule(
  input: Omit<ScheduleInput, 'cardId' | 'token' | 'originTransactionId' | 'merchantId'>,
) {
  const frequency = parseFrequency(input.frequency);
  let cents: bigint;
  try {
    cents = toPositiveCents(input.amount ?? '', 'RecurringAmount');
  } catch (err) {
    if (err instanceof AmountError) throw new RequestProblem('13', err.message);
    throw err;
  }
  const start = parseDate(input.start, 'RecurringStartDate');
  const end = parseDate(input.end, 'RecurringEndDate');
  // The first charge is this payment; the schedule's next one is one period after the start.
  const first =
    start && start.getTime() > input.now.getTime() ? start : nextDate(start ?? input.now, frequency);
  if (end && end.getTime() < first.getTime())
    throw new RequestProblem('12', 'RecurringEndDate is before the first recurring charge.');
  return { frequency, cents, first, end };
}

export async function createSchedule(q: Queryable, input: ScheduleInput): Promise<Schedule> {
  const { frequency, cents, first, end } = checkSchedule(input);
  const { rows } = await q.query<{ id: string }>(
    `insert into recurring_schedules (merchant_id, card_id, payment_token, amount, frequency, next_process_date, end_date,
       first_name, last_name, card_name, card_email, origin_transaction_id)
     values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) returning id`,
    [
      input.merchantId,
      input.cardId,
      input.token,
      fromCents(cents),
      frequency,
      first,
      end,
      input.firstName ?? null,
      input.lastName ?? null,
      input.cardName ?? null,
      input.email ?? null,
      input.originTransactionId,
    ],
  );
  return {
    id: String(rows[0]!.id),
    amount: fromCents(cents),
    nextProcessDate: first,
    endDate: end,
    frequency,
  };
}
