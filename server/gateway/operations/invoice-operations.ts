/**
 * CreateInvoice (spec "InvoiceRequest / InvoiceDetails / InvoiceResponse"; DESIGN.md "What the spec
 * leaves open"): records the valid invoices, totals them plus the convenience fee, and answers in
 * InvoiceRandomNumber the token of a checkout session for exactly that total, so the hosted page
 * collects it. Each invalid invoice is one string in Errors. Rules: docs/gateway-profiles-invoices.md.
 */
import crypto from 'node:crypto';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import type { ValueOf } from '../../../shared/contract/values.ts';
import { parseXsdDateTime } from '../../../shared/contract/xsd-date-time.ts';
import { AmountError, fromCents, MAX_CENTS, toCents } from '../../../shared/money.ts';
import { PayframeError } from '../../errors.ts';
import { actOn } from '../auth.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import { checkoutUrl } from './hosted-payment-operations.ts';

export const MAX_INVOICES = 100;
export const INVOICE_NUMBER_MAX = 64;
const QB_ID_MAX = 100;
/** Invoice dates from 2000-01-01 up to this many days after today (UTC). */
export const INVOICE_DATE_MIN = '2000-01-01';
export const INVOICE_DATE_MAX_DAYS_AHEAD = 366;
/** A checkout session's order number holds at most 64 characters. */
const ORDER_NUMBER_MAX = 64;

type InvoiceDetails = ValueOf<'InvoiceDetails'>;
type InvoiceResponse = OperationResult<'CreateInvoice'>;

export interface ValidInvoice {
  /** 1-based position in the request. */
  position: number;
  number: string | null;
  cents: bigint;
  /** YYYY-MM-DD, the calendar date as written. */
  date: string;
}

/** Removes control and bidi-override characters, trims; empty: null. */
function cleanText(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point.
  const cleaned = value.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  return cleaned || null;
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** What is wrong with InvoiceAmount, or its cents. */
function amountOf(text: string): bigint | string {
  let cents: bigint;
  try {
    cents = toCents(text);
  } catch (err) {
    if (!(err instanceof AmountError)) throw err;
    if (/decimals/.test(err.message)) return 'InvoiceAmount has more than two decimals';
    if (/too large/.test(err.message)) return `InvoiceAmount is more than ${fromCents(MAX_CENTS)}`;
    return 'InvoiceAmount is not an amount';
  }
  return cents > 0n ? cents : 'InvoiceAmount must be greater than zero';
}

/**
 * What is wrong with InvoiceDate, or the calendar date it names. Nil (`xsi:nil="true"`, which the
 * schema allows: the element is nillable, and a client that follows it sends a null DateTime so)
 * is the invoice's creation date: today, UTC, as ASMX takes it.
 */
function dateOf(value: string | null, now: Date): { date: string } | string {
  if (value === null) return { date: isoDay(now.getTime()) };
  let v: ReturnType<typeof parseXsdDateTime>;
  try {
    v = parseXsdDateTime(value);
  } catch {
    return 'InvoiceDate is not a date';
  }
  if (v.form !== 'dateTime' && v.form !== 'date') return 'InvoiceDate must be a full date (YYYY-MM-DD)';
  const date = `${String(v.year).padStart(4, '0')}-${String(v.month).padStart(2, '0')}-${String(v.day).padStart(2, '0')}`;
  const latest = isoDay(now.getTime() + INVOICE_DATE_MAX_DAYS_AHEAD * 86_400_000);
  if (date < INVOICE_DATE_MIN || date > latest) {
    return `InvoiceDate ${date} is not between ${INVOICE_DATE_MIN} and ${latest}`;
  }
  return { date };
}

/**
 * Checks every invoice: the valid ones, and one human-readable string per invalid one, naming it
 * by its InvoiceNumber, or by its position when it has none. Pure.
 */
export function checkInvoices(
  invoices: readonly InvoiceDetails[],
  now: Date,
): { valid: ValidInvoice[]; errors: string[] } {
  const valid: ValidInvoice[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  invoices.forEach((inv, index) => {
    const position = index + 1;
    const problems: string[] = [];
    const number = cleanText(inv.InvoiceNumber);
    let label = number ? `Invoice ${number}` : `Invoice ${position} (no InvoiceNumber)`;
    if (number && number.length > INVOICE_NUMBER_MAX) {
      label = `Invoice ${position}`;
      problems.push(`InvoiceNumber is longer than ${INVOICE_NUMBER_MAX} characters`);
    } else if (number && seen.has(number)) {
      label = `Invoice ${number} (position ${position})`;
      problems.push('the same InvoiceNumber appears earlier in this request');
    }
    if (number) seen.add(number);
    const cents = amountOf(inv.InvoiceAmount);
    if (typeof cents === 'string') problems.push(cents);
    const date = dateOf(inv.InvoiceDate, now);
    if (typeof date === 'string') problems.push(date);
    if (problems.length > 0 || typeof cents === 'string' || typeof date === 'string') {
      errors.push(`${label}: ${problems.join('; ')}.`);
      return;
    }
    valid.push({ position, number, cents, date: date.date });
  });
  return { valid, errors };
}

/** `percent`% of `cents`, rounded half-up to the cent (both are non-negative). Pure. */
export function percentOf(cents: bigint, percent: string): bigint {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(percent.trim());
  if (!m) throw new AmountError(`'${percent}' is not a percentage.`);
  const fraction = m[2] ?? '';
  const scaled = BigInt(`${m[1] ?? ''}${fraction}` || '0');
  const denominator = 100n * 10n ** BigInt(fraction.length);
  return (2n * cents * scaled + denominator) / (2n * denominator);
}

/** The convenience fee in cents for these invoices, or why the fee cannot be used. Pure. */
export function convenienceFee(fee: string, isPercentage: boolean, invoicesCents: bigint): bigint | string {
  if (isPercentage) {
    const m = /^(\d*)(?:\.(\d*))?$/.exec(fee.trim());
    const whole = BigInt(m?.[1] || '0');
    if (!m || whole > 100n || (whole === 100n && /[1-9]/.test(m[2] ?? ''))) {
      return 'ConvenienceFee must be a percentage from 0 to 100 when ConvenienceFeePercentage is true.';
    }
    return percentOf(invoicesCents, fee);
  }
  try {
    const cents = toCents(fee);
    if (cents >= 0n) return cents;
  } catch (err) {
    if (!(err instanceof AmountError)) throw err;
  }
  return 'ConvenienceFee must be an amount of zero or more, with at most two decimals.';
}

/** The session's order number: 'INV-' and the invoice numbers, or a generated reference. */
function orderNumberOf(valid: readonly ValidInvoice[]): string {
  const numbers = valid.map((v) => v.number);
  const joined = `INV-${numbers.join(',')}`;
  if (numbers.every((n) => n !== null) && joined.length <= ORDER_NUMBER_MAX) return joined;
  return `INV-${crypto.randomBytes(6).toString('hex').toUpperCase()}`;
}

const failed = (Message: string, Errors: string[] = []): InvoiceResponse => ({
  Success: false,
  Message,
  Errors,
});

export async function createInvoice(
  params: OperationParams<'CreateInvoice'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'CreateInvoice'>> {
  const r = params.invoiceRequest;
  if (!r) return failed('The invoiceRequest element is required.');
  const merchantId = actOn(call.principal, r.MerchantID);
  if (call.principal.kind !== 'merchant')
    throw new PayframeError('forbidden', 'Only a merchant may create invoices.');
  // DESIGN.md §6: a TransactionKey inside a message must match too (as in CreateHostedPayment).
  if (r.TransactionKey && !(await deps.merchants.verifyKey(deps.db, merchantId, r.TransactionKey))) {
    throw new PayframeError('forbidden', 'The TransactionKey in the message does not match the credential.');
  }
  const merchant = await deps.merchants.get(deps.db, merchantId);
  if (!merchant) throw new PayframeError('not_found', 'No merchant matches this request.');

  const invoices = r.Invoices ?? [];
  if (invoices.length === 0) return failed('The request has no invoices.');
  if (invoices.length > MAX_INVOICES) return failed(`At most ${MAX_INVOICES} invoices may be sent at once.`);
  const qbCustomerId = cleanText(r.QbCustomerId);
  const qbAccountId = cleanText(r.QbARAccountId);
  if ((qbCustomerId?.length ?? 0) > QB_ID_MAX || (qbAccountId?.length ?? 0) > QB_ID_MAX) {
    return failed(`QbCustomerId and QbARAccountId may be at most ${QB_ID_MAX} characters.`);
  }

  const { valid, errors } = checkInvoices(invoices, deps.now());
  if (valid.length === 0)
    return failed('No invoice is valid, so there is nothing to pay: see Errors.', errors);
  const invoicesCents = valid.reduce((sum, v) => sum + v.cents, 0n);
  const fee = convenienceFee(r.ConvenienceFee, r.ConvenienceFeePercentage, invoicesCents);
  if (typeof fee === 'string') return failed(fee, errors);
  const total = invoicesCents + fee;
  if (total > MAX_CENTS) return failed(`The total may be at most ${fromCents(MAX_CENTS)}.`, errors);

  let token: string;
  try {
    token = await deps.db.transaction(async (tx) => {
      const session = await deps.sessions.create(tx, merchant, {
        amount: fromCents(total),
        orderNumber: orderNumberOf(valid),
      });
      const { rows } = await tx.query<{ id: string }>(
        `insert into invoice_requests (merchant_id, checkout_session_id, invoices_total, fee_input, fee_is_percentage,
           convenience_fee, total, qb_customer_id, qb_ar_account_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
        [
          merchantId,
          session.id,
          fromCents(invoicesCents),
          r.ConvenienceFee,
          r.ConvenienceFeePercentage,
          fromCents(fee),
          fromCents(total),
          qbCustomerId,
          qbAccountId,
        ],
      );
      const requestId = rows[0]!.id;
      for (const v of valid) {
        await tx.query(
          `insert into invoices (invoice_request_id, merchant_id, position, invoice_number, amount, invoice_date)
           values ($1, $2, $3, $4, $5, $6)`,
          [requestId, merchantId, v.position, v.number, fromCents(v.cents), v.date],
        );
      }
      return session.token;
    });
  } catch (err) {
    if (err instanceof PayframeError && err.code === 'validation_failed') return failed(err.message, errors);
    throw err;
  }

  const counted = `${valid.length} invoice${valid.length === 1 ? '' : 's'} (${fromCents(invoicesCents)})`;
  const skipped =
    errors.length > 0
      ? ` ${errors.length} invalid invoice${errors.length === 1 ? ' was' : 's were'} left out: see Errors.`
      : '';
  return {
    Success: true,
    Message: `${counted} + convenience fee ${fromCents(fee)} = ${fromCents(total)}. Pay at ${checkoutUrl(deps, token)}.${skipped}`,
    InvoiceRandomNumber: token,
    Errors: errors,
  };
}

/** The handlers of this file, to be merged into GATEWAY_HANDLERS (gateway.ts). */
export const INVOICE_HANDLERS = { CreateInvoice: createInvoice } as const;
