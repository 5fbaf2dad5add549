/**
 * The receipts a merchant's ProcessTransaction asks for (the spec's Request booleans;
 * docs/merchant-guide.md "Receipt e-mails"): `CardHolderReceipt` to the request's `Email`,
 * `MerchantReceipt` to the merchant's support e-mail when it has one — the same receipt the checkout
 * sends its shoppers, queued in the transaction that records the approved transaction and sent by
 * the notifier from that queue (server/notify/receipt-queue.ts). Once per transaction and recipient.
 */
import type { Queryable } from '../../db/database.ts';
import { shopperLang } from '../../i18n/index.ts';
import { type AccountType, receiptMessage, type ReceiptFacts } from '../../notify/receipt-message.ts';
import { enqueueReceipt } from '../../notify/receipt-queue.ts';
import { fromCents } from '../../../shared/money.ts';
import type { Merchant } from '../merchants/merchant.ts';
import { GATEWAY_CURRENCY } from './payment-figures.ts';
import { type Request, type Source, sourceSummary } from './payment-source.ts';
import type { TransactionRow } from './transaction-rows.ts';

const ACCOUNT_TYPES: Record<string, AccountType> = {
  checking: 'checking',
  savings: 'savings',
  businesschecking: 'businessChecking',
};

/** Queues the receipts `r` asks for, when the transaction was approved; call it in the row's transaction. */
export async function queueRequestedReceipts(
  q: Queryable,
  r: Request,
  merchant: Merchant,
  row: TransactionRow,
  source: Source,
): Promise<void> {
  if (row.status !== 'approved' || (!r.CardHolderReceipt && !r.MerchantReceipt)) return;
  const summary = sourceSummary(source);
  const facts: ReceiptFacts = {
    merchantName: merchant.businessName ?? merchant.name,
    orderNumber: null,
    amount: fromCents(row.approvedCents),
    currency: GATEWAY_CURRENCY,
    method: summary.method,
    cardBrand: summary.brand,
    maskedNumber: summary.masked,
    accountType: source.kind === 'ach' ? (ACCOUNT_TYPES[source.accountType] ?? null) : null,
    transactionId: row.id,
    paidAt: row.createdAt,
  };
  // The spec's Request carries no language: English.
  const lang = shopperLang({});
  const to = [
    ...(r.CardHolderReceipt && r.Email?.trim() ? [['cardholder', r.Email.trim()] as const] : []),
    ...(r.MerchantReceipt && merchant.email ? [['merchant', merchant.email] as const] : []),
  ];
  for (const [who, email] of to) {
    await enqueueReceipt(
      q,
      {
        dedupeKey: `transaction:${row.id}:${who}`,
        merchantId: merchant.id,
        message: receiptMessage(email, lang, facts),
      },
      row.createdAt,
    );
  }
}
