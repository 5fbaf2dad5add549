/**
 * The receipt e-mail after an approved payment (docs/merchant-guide.md "Receipt e-mails"), in the
 * shopper's language (server/i18n): the merchant, the order, the amount, how it was paid — a card's
 * brand and last four digits, or a bank account's type and last four — the transaction id and the
 * time. Never more of a number than its last four digits: the masked number the gateway answers is
 * reduced to them here, and the notifier refuses any text that still holds a card number.
 */
import { fill, type ShopperLang, shopperTexts } from '../i18n/index.ts';
import type { NotificationMessage } from './message.ts';

export interface ReceiptFacts {
  merchantName: string | null;
  orderNumber: string | null;
  /** A decimal string, as the gateway answers it (never a float). */
  amount: string;
  currency: string | null;
  method: 'card' | 'ach' | null;
  /** The card's brand ('Visa'…); null for a bank account or when the gateway did not say. */
  cardBrand: string | null;
  /** The card or account number as the gateway masks it; only its last four digits are used. */
  maskedNumber: string | null;
  /** A bank account's type, when known. */
  accountType?: AccountType | null;
  transactionId: string | null;
  paidAt: Date;
}

/** A bank account's type, as the checkout's ACH form names it (shared/checkout/fields.ts). */
export type AccountType = 'checking' | 'savings' | 'businessChecking';

/** The last four digits of a masked number, or null when it has fewer than four. */
export function lastFourOf(masked: string | null): string | null {
  const digits = (masked ?? '').replace(/\D/g, '');
  return digits.length >= 4 ? digits.slice(-4) : null;
}

/** The amount in the shopper's language; Intl formats the decimal string exactly (no float). */
function money(amount: string, currency: string | null, lang: ShopperLang): string {
  try {
    const options: Intl.NumberFormatOptions = currency
      ? { style: 'currency', currency }
      : { minimumFractionDigits: 2, maximumFractionDigits: 2 };
    return new Intl.NumberFormat(lang, options).format(amount as unknown as number);
  } catch {
    return currency ? `${amount} ${currency}` : amount;
  }
}

function when(at: Date, lang: ShopperLang): string {
  const text = new Intl.DateTimeFormat(lang, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(at);
  return `${text} UTC`;
}

const ACCOUNT_KEYS: Record<AccountType, 'receiptChecking' | 'receiptSavings' | 'receiptBusinessChecking'> = {
  checking: 'receiptChecking',
  savings: 'receiptSavings',
  businessChecking: 'receiptBusinessChecking',
};

/** "Visa ending in 4242", "Savings account ending in 6789"; null when the number is unknown. */
function paidWith(facts: ReceiptFacts, lang: ShopperLang): string | null {
  const t = shopperTexts(lang);
  const last4 = lastFourOf(facts.maskedNumber);
  if (last4 === null) return null;
  if (facts.method === 'ach') {
    const key = facts.accountType ? ACCOUNT_KEYS[facts.accountType] : 'receiptBankAccount';
    return fill(t[key], { last4 });
  }
  return facts.cardBrand
    ? fill(t.receiptCard, { brand: facts.cardBrand, last4 })
    : fill(t.receiptCardNoBrand, { last4 });
}

const escapeHtml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The receipt as the notifier sends it: a subject, a text and its HTML alternative. */
export function receiptMessage(to: string, lang: ShopperLang, facts: ReceiptFacts): NotificationMessage {
  const t = shopperTexts(lang);
  const merchant = facts.merchantName ?? t.otpMerchant;
  const rows: [string, string][] = [
    [t.receiptMerchant, merchant],
    ...(facts.orderNumber ? ([[t.receiptOrder, facts.orderNumber]] as [string, string][]) : []),
    [t.receiptAmount, money(facts.amount, facts.currency, lang)],
  ];
  const method = paidWith(facts, lang);
  if (method) rows.push([t.receiptPaidWith, method]);
  if (facts.transactionId) rows.push([t.receiptTransaction, facts.transactionId]);
  rows.push([t.receiptDate, when(facts.paidAt, lang)]);
  const intro = fill(t.receiptIntro, { merchant });
  const footer = fill(t.receiptFooter, { merchant });
  const dir = lang === 'ar' || lang === 'he' ? 'rtl' : 'ltr';
  const text = [intro, '', ...rows.map(([k, v]) => `${k}: ${v}`), '', footer].join('\n');
  const html =
    `<div lang="${lang}" dir="${dir}"><p>${escapeHtml(intro)}</p><table>` +
    rows
      .map(([k, v]) => `<tr><th align="start">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
      .join('') +
    `</table><p>${escapeHtml(footer)}</p></div>`;
  return {
    channel: 'email',
    to,
    subject: fill(t.receiptSubject, { merchant }),
    text,
    html,
    purpose: 'receipt',
  };
}
