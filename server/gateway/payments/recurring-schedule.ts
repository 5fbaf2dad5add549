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

/**
 * The next date of a schedule after `from`, in UTC. Month steps land on `anchorDay` (the schedule's
 * own day of the month), clamped to the month's end: the 31st gives Feb 28/29, then Mar 31.
 */
export function nextDate(from: Date, frequency: Frequency, anchorDay = from.getUTCDate()): Date {
  const { days, months } = FREQUENCIES[frequency];
  if (days) return new Date(from.getTime() + days * 86_400_000);
  const d = new Date(from.getTime());
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(anchorDay, last));
  return d;
}

/** A start further back than this is refused rather than rolled forward. */
const MAX_START_AGE_MS = 366 * 86_400_000;

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
  // The first charge is this payment; the schedule's next one is the first date of its calendar
  // after now: a start in the past is rolled forward, never charged for the periods it missed.
  const anchor = start ?? input.now;
  if (input.now.getTime() - anchor.getTime() > MAX_START_AGE_MS) {
    throw new RequestProblem('12', 'RecurringStartDate is more than a year in the past.');
  }
  const anchorDay = anchor.getUTCDate();
  let first = start && start.getTime() > input.now.getTime() ? start : nextDate(anchor, frequency, anchorDay);
  while (first.getTime() <= input.now.getTime()) first = nextDate(first, frequency, anchorDay);
  if (end && end.getTime() < first.getTime())
    throw new RequestProblem('12', 'RecurringEndDate is before the first recurring charge.');
  return { frequency, cents, first, end, anchorDay };
}

export async function createSchedule(q: Queryable, input: ScheduleInput): Promise<Schedule> {
  const { frequency, cents, first, end, anchorDay } = checkSchedule(input);
  const { rows } = await q.query<{ id: string }>(
    `insert into recurring_schedules (merchant_id, card_id, payment_token, amount, frequency, next_process_date, end_date,
       first_name, last_name, card_name, card_email, origin_transaction_id, anchor_day)
     values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13) returning id`,
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
      anchorDay,
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
