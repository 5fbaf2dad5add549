/**
 * The recurring runner (DESIGN.md §14): charges due schedules once each, also with several
 * instances on one PostgreSQL. A due date is claimed first — `FOR UPDATE SKIP LOCKED` picks the
 * schedule, a `recurring_runs` row (primary key schedule + due date) records the claim and the
 * schedule moves on, all in one commit — and only then is the processor called, with a reference
 * made of the schedule and due date, so a run cut short and retried cannot charge twice.
 */

import { toCents } from '../../../shared/money.ts';
import type { GatewayDeps } from '../gateway-call.ts';
import { nextDate, parseFrequency } from './recurring-schedule.ts';
import { insertTransaction } from './transaction-rows.ts';

interface DueRun {
  scheduleId: string;
  merchantId: string;
  cardId: string;
  amount: string;
  dueDate: Date;
  /** The name the merchant gave the schedule (CardName, else FirstName LastName), or null. */
  nameOnCard: string | null;
}

export interface RunReport {
  charged: number;
  declined: number;
}

function reference(run: Pick<DueRun, 'scheduleId' | 'dueDate'>): string {
  return `rec${run.scheduleId}-${run.dueDate.toISOString()}`;
}

/** Claims the next due schedule, or returns null when none is due. */
async function claimNext(deps: GatewayDeps, now: Date): Promise<DueRun | 'already-ran' | null> {
  return deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<Record<string, string | Date | null>>(
      `select id, merchant_id, card_id, amount, frequency, next_process_date, end_date, anchor_day,
              coalesce(nullif(trim(card_name), ''), nullif(trim(concat_ws(' ', first_name, last_name)), '')) as name_on_card from recurring_schedules
       where active and next_process_date <= $1 order by next_process_date, id limit 1 for update skip locked`,
      [now],
    );
    const s = rows[0];
    if (!s) return null;
    const due = s.next_process_date as Date;
    const anchor = s.anchor_day === null ? undefined : Number(s.anchor_day);
    const next = nextDate(due, parseFrequency(s.frequency as string), anchor);
    const end = s.end_date as Date | null;
    await tx.query('update recurring_schedules set next_process_date = $2, active = $3 where id = $1', [
      s.id,
      next,
      !end || next.getTime() <= end.getTime(),
    ]);
    const claimed = await tx.query(
      'insert into recurring_runs (schedule_id, due_date) values ($1, $2) on conflict do nothing',
      [s.id, due],
    );
    if (claimed.rowCount === 0) return 'already-ran';
    const run: DueRun = {
      scheduleId: String(s.id),
      merchantId: String(s.merchant_id),
      cardId: s.card_id as string,
      amount: s.amount as string,
      dueDate: due,
      nameOnCard: (s.name_on_card as string | null) ?? null,
    };
    return run;
  });
}

async function charge(deps: GatewayDeps, run: DueRun): Promise<boolean> {
  const card = await deps.vault.get(deps.db, run.cardId);
  if (!card) throw new Error(`schedule ${run.scheduleId}: card missing`);
  const ref = reference(run);
  const result = await deps.processor.authorizeCard({
    reference: ref,
    pan: await deps.vault.reveal(deps.db, run.cardId),
    expMonth: card.expMonth,
    expYear: card.expYear,
    amountCents: toCents(run.amount),
  });
  await deps.db.transaction(async (tx) => {
    const row = await insertTransaction(tx, {
      merchantId: run.merchantId,
      kind: 'sale',
      method: 'card',
      approved: result.approved,
      amountCents: toCents(run.amount),
      approvedCents: result.approved ? result.approvedAmountCents : 0n,
      cardId: run.cardId,
      nameOnCard: run.nameOnCard,
      responseCode: result.responseCode,
      responseMessage: result.responseMessage,
      approvalCode: result.approvalCode ?? null,
      avsCode: result.avsCode ?? null,
      source: 'recurring',
      processorReference: ref,
    });
    await tx.query('update recurring_runs set transaction_id = $3 where schedule_id = $1 and due_date = $2', [
      run.scheduleId,
      run.dueDate,
      row.id,
    ]);
  });
  return result.approved;
}

/** Finishes runs that were claimed but never recorded (a crash between claim and record). */
async function finishInterrupted(deps: GatewayDeps, now: Date, report: RunReport): Promise<void> {
  const { rows } = await deps.db.query<Record<string, string | Date>>(
    `select r.schedule_id, r.due_date, s.merchant_id, s.card_id, s.amount,
            coalesce(nullif(trim(s.card_name), ''), nullif(trim(concat_ws(' ', s.first_name, s.last_name)), '')) as name_on_card from recurring_runs r
     join recurring_schedules s on s.id = r.schedule_id
     where r.transaction_id is null and r.ran_at < $1 limit 20`,
    [new Date(now.getTime() - 60_000)],
  );
  for (const r of rows) {
    const run: DueRun = {
      scheduleId: String(r.schedule_id),
      merchantId: String(r.merchant_id),
      cardId: String(r.card_id),
      amount: String(r.amount),
      dueDate: r.due_date as Date,
      nameOnCard: (r.name_on_card as string | null) ?? null,
    };
    // The same reference as the interrupted attempt: the processor answers it without charging again.
    if (await charge(deps, run)) report.charged++;
    else report.declined++;
  }
}

export async function runDueSchedules(
  deps: GatewayDeps,
  options: { now?: Date; limit?: number } = {},
): Promise<RunReport> {
  const now = options.now ?? deps.now();
  const report: RunReport = { charged: 0, declined: 0 };
  await finishInterrupted(deps, now, report);
  for (let i = 0; i < (options.limit ?? 100); i++) {
    const run = await claimNext(deps, now);
    if (!run) break;
    if (run === 'already-ran') continue;
    if (await charge(deps, run)) report.charged++;
    else report.declined++;
  }
  return report;
}
