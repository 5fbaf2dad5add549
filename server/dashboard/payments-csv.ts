/**
 * The payments list as CSV (RFC 4180), streamed: a page of ListPayments at a time, each written as
 * it comes, so an export of any size holds one page in memory. The same filters as the list.
 *
 * A cell a spreadsheet would read as a formula — starting with = + - @, a tab or a carriage return —
 * is prefixed with ' (OWASP "CSV injection"): an order number or a customer's name typed by a
 * shopper can never run in the merchant's spreadsheet.
 */
import { Readable } from 'node:stream';
import type { OperationResult } from '../../shared/contract/service.ts';
import type { PaymentFilter } from './payment-filter.ts';
import { type Payment, paymentView } from './views.ts';

type PaymentPage = OperationResult<'ListPayments'>;

/** The columns, in order, with the field of the API's Payment each one shows. */
export const CSV_COLUMNS: readonly (readonly [header: string, field: keyof Payment])[] = [
  ['transaction_id', 'id'],
  ['created_at', 'createdAt'],
  ['kind', 'kind'],
  ['state', 'state'],
  ['amount', 'amount'],
  ['approved_amount', 'approvedAmount'],
  ['captured_amount', 'capturedAmount'],
  ['refunded_amount', 'refundedAmount'],
  ['currency', 'currency'],
  ['method', 'method'],
  ['brand', 'brand'],
  ['last4', 'last4'],
  ['order_number', 'orderNumber'],
  ['customer_name', 'customerName'],
  ['customer_email', 'customerEmail'],
  ['response_code', 'responseCode'],
  ['decline_reason', 'declineReason'],
  ['batch_id', 'batchId'],
];

/** Rows per ListPayments call: the operation's largest page. */
export const CSV_PAGE_SIZE = 100;

export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, each cell made safe by csvCell. */
export function csvRow(cells: readonly (string | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function paymentRow(p: Payment): string {
  return csvRow(CSV_COLUMNS.map(([, field]) => p[field]));
}

/**
 * The export from its first page on: the caller fetched that page (so a refused session answers
 * before anything is sent), `next` fetches each page after the transaction id it is given.
 */
export function paymentsCsv(
  first: PaymentPage,
  filter: PaymentFilter,
  next: (filter: PaymentFilter) => Promise<PaymentPage>,
): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield csvRow(CSV_COLUMNS.map(([header]) => header));
    let page = first;
    for (;;) {
      const payments = page.Payments ?? [];
      for (const p of payments) yield paymentRow(paymentView(p));
      const last = payments.at(-1);
      if (!page.HasMore || !last) return;
      page = await next({ ...filter, Limit: CSV_PAGE_SIZE, StartingAfter: last.TransactionID });
    }
  }
  return Readable.from(lines());
}
