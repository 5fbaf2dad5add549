/**
 * GetTransactionHistories and GetRecurringCustomerDetail (spec "Reporting"): the merchant's own
 * transactions in [startDate, endDate], newest first, with SettlementStatus; and its active
 * schedules. Ranges and result sizes are bounded, with a clear fault beyond.
 */
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import { fromCents, toCents } from '../../../shared/money.ts';
import { PayframeError } from '../../errors.ts';
import { actOn } from '../auth.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';

export const MAX_RANGE_DAYS = 366;
export const MAX_HISTORY_ROWS = 1000;

/** A dateTime from the wire as an instant; a date or a time without offset is read as UTC. */
function instant(value: string, endOfDay: boolean): Date {
  let v = value;
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) v = `${v}T${endOfDay ? '23:59:59.999' : '00:00:00'}`;
  if (!/([zZ]|[+-]\d\d:\d\d)$/.test(v)) v = `${v}Z`;
  const d = new Date(v);
  if (Number.isNaN(d.getTime()))
    throw new PayframeError('invalid_request', `'${value}' is not a date and time this operation can use.`);
  return d;
}

/** ASMX writes a database time as an Unspecified dateTime: no offset (asmx-compatibility.md §1.5). */
function unspecified(d: Date): string {
  return d
    .toISOString()
    .replace(/\.?0*Z$/, '')
    .replace(/(\.\d*?)0+$/, '$1');
}

export async function getTransactionHistories(
  params: OperationParams<'GetTransactionHistories'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetTransactionHistories'>> {
  const merchantId = actOn(call.principal, params.merchantID);
  const start = instant(params.startDate, false);
  const end = instant(params.endDate, true);
  if (end.getTime() < start.getTime())
    throw new PayframeError('invalid_request', 'endDate is before startDate.');
  if (end.getTime() - start.getTime() > MAX_RANGE_DAYS * 86_400_000) {
    throw new PayframeError('invalid_request', `The date range may span at most ${MAX_RANGE_DAYS} days.`);
  }
  const { rows } = await deps.db.query<Record<string, string | Date | null>>(
    `select t.id, t.merchant_id, t.amount, t.approved_amount, t.status, t.created_at, t.name_on_card, t.settlement_status,
            t.source, t.approval_code, t.custom_value1, t.custom_value2, t.custom_value3, t.kind,
            coalesce(c.last4, t.ach_account_last4) as last4
     from transactions t left join cards c on c.id = t.card_id
     where t.merchant_id = $1 and t.created_at >= $2 and t.created_at <= $3
     order by t.created_at desc, t.id desc limit $4`,
    [merchantId, start, end, MAX_HISTORY_ROWS + 1],
  );
  if (rows.length > MAX_HISTORY_ROWS) {
    throw new PayframeError(
      'invalid_request',
      `More than ${MAX_HISTORY_ROWS} transactions match: ask for a shorter date range.`,
    );
  }
  return rows.map((t) => ({
    TransactionHistoryID: String(t.id),
    MerchantID: String(t.merchant_id),
    TransactionID: String(t.id),
    TransactionAmount: fromCents(toCents(String(t.status === 'approved' ? t.approved_amount : t.amount))),
    TransactionDate: unspecified(t.created_at as Date),
    NameOnCard: (t.name_on_card as string | null) ?? undefined,
    CardNumberLast4Digit: (t.last4 as string | null) ?? undefined,
    SettlementStatus: t.settlement_status as string,
    Source: (t.source as string | null) ?? String(t.kind),
    ApprovalCode: (t.approval_code as string | null) ?? undefined,
    CustomValue1: (t.custom_value1 as string | null) ?? undefined,
    CustomValue2: (t.custom_value2 as string | null) ?? undefined,
    CustomValue3: (t.custom_value3 as string | null) ?? undefined,
  }));
}

export async function getRecurringCustomerDetail(
  params: OperationParams<'GetRecurringCustomerDetail'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetRecurringCustomerDetail'>> {
  const merchantId = actOn(call.principal, params.merchantID);
  const { rows } = await deps.db.query<Record<string, string | Date | null>>(
    `select s.id, s.merchant_id, s.payment_token, s.next_process_date, s.amount, s.first_name, s.last_name,
            s.card_name, s.card_email, s.frequency, c.last4, c.exp_month, c.exp_year
     from recurring_schedules s join cards c on c.id = s.card_id
     where s.merchant_id = $1 and s.active order by s.next_process_date, s.id`,
    [merchantId],
  );
  return rows.map((s) => ({
    MerchantID: String(s.merchant_id),
    RecurringInfoID: String(s.id),
    // PaymentInfoID is a long: the schedule's stored payment is identified by the schedule itself.
    PaymentInfoID: String(s.id),
    NextProcessDate: unspecified(s.next_process_date as Date),
    Amount: s.amount as string,
    FirstName: (s.first_name as string | null) ?? undefined,
    LastName: (s.last_name as string | null) ?? undefined,
    CardName: (s.card_name as string | null) ?? undefined,
    CardEmail: (s.card_email as string | null) ?? undefined,
    CardNumberLast4Digit: s.last4 as string,
    ExpirationDate: `${String(s.exp_month).padStart(2, '0')}/${String(s.exp_year).slice(-2)}`,
    TimeFrame: s.frequency as string,
  }));
}
