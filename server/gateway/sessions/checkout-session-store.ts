/**
 * Checkout sessions (DESIGN.md §7): created server to server, they hold the amount, order number,
 * shopper details and ReturnUrl; nothing a browser sends can change them. A session expires, and is
 * paid successfully at most once (a unique index on transactions enforces it).
 */
import {
  normalizeText,
  TEXT_PROBLEM_CODES,
  TEXT_PROBLEM_MESSAGES,
  textProblem,
} from '../../../shared/text/text-policy.ts';
import crypto from 'node:crypto';
import { containsCardNumber } from '../../../shared/card/card-number-in-text.ts';
import { AmountError, fromCents, toCents, toPositiveCents } from '../../../shared/money.ts';
import { checkReturnUrl, checkUrlAnyOrigin, URL_PROBLEM_MESSAGES } from '../../../shared/return-url.ts';
import {
  type LineItem,
  lineItemsProblem,
  MAX_DESCRIPTION,
  MAX_LINE_ITEM_NAME,
} from '../../../shared/checkout/line-items.ts';
import { MAX_EXPIRES_IN_MINUTES } from '../../../shared/checkout/session-schemas.ts';
import type { Queryable } from '../../db/database.ts';
import { PayframeError } from '../../errors.ts';
import type { Merchant } from '../merchants/merchant-store.ts';

export type SessionStatus = 'open' | 'paid' | 'expired' | 'canceled';

export interface CheckoutSession {
  id: string;
  token: string;
  merchantId: string;
  amountCents: bigint;
  currency: string;
  orderNumber: string | null;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  address1: string | null;
  address2: string | null;
  country: string | null;
  stateProvince: string | null;
  city: string | null;
  zipCode: string | null;
  phoneNumber: string | null;
  returnUrl: string | null;
  /** Back to the store without paying (issue 14 §1); the same rules as returnUrl. */
  cancelUrl: string | null;
  webhookUrl: string | null;
  locale: string | null;
  /** What is bought (issue 14 §4), shown above the amount. */
  description: string | null;
  lineItems: LineItem[] | null;
  /** Made as a payment link (the dashboard's), listed apart from a shop's checkouts. */
  paymentLink: boolean;
  status: SessionStatus;
  transactionId: string | null;
  expiresAt: Date;
  canceledAt: Date | null;
  createdAt: Date;
}

export interface NewSession {
  amount: string;
  currency?: string | null;
  orderNumber?: string | null;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  address1?: string | null;
  address2?: string | null;
  country?: string | null;
  stateProvince?: string | null;
  city?: string | null;
  zipCode?: string | null;
  phoneNumber?: string | null;
  returnUrl?: string | null;
  cancelUrl?: string | null;
  webhookUrl?: string | null;
  locale?: string | null;
  description?: string | null;
  lineItems?: readonly LineItem[] | null;
  /** Minutes the session stays payable, 1 to MAX_EXPIRES_IN_MINUTES; the store's TTL when absent. */
  expiresInMinutes?: number | null;
  /** A payment link (the dashboard's): listed apart from a shop's checkouts. */
  paymentLink?: boolean | null;
}

const TOKEN = /^cs_[A-Za-z0-9_-]{43}$/;
const TEXT_FIELDS = [
  ['orderNumber', 'order_number', 64],
  ['email', 'email', 254],
  ['firstName', 'first_name', 100],
  ['lastName', 'last_name', 100],
  ['address1', 'address1', 200],
  ['address2', 'address2', 200],
  ['country', 'country', 100],
  ['stateProvince', 'state_province', 100],
  ['city', 'city', 100],
  ['zipCode', 'zip_code', 20],
  ['phoneNumber', 'phone_number', 32],
] as const;

function problem(field: string, message: string): PayframeError {
  return new PayframeError('validation_failed', `${field} ${message}`, [
    { field, code: 'invalid', message: `${field} ${message}` },
  ]);
}

/**
 * Merchant-supplied text under the one text policy (XSS-1; shared/text): trimmed, in NFC, refused
 * with a control, bidi or invisible character (the gateway refuses those before any handler; this
 * holds for every other writer of a session, the CLI included).
 */
function cleanText(value: string | null | undefined, field: string, max: number): string | null {
  if (value === null || value === undefined) return null;
  const cleaned = normalizeText(value.trim());
  if (cleaned.length > max) throw problem(field, `must be at most ${max} characters.`);
  const refused = textProblem(cleaned);
  if (refused) {
    const message = `${field} ${TEXT_PROBLEM_MESSAGES[refused]}`;
    throw new PayframeError('validation_failed', message, [
      { field, code: TEXT_PROBLEM_CODES[refused], message },
    ]);
  }
  // Whoever writes a session (the gateway's operations, the CLI): never a card number in clear.
  if (containsCardNumber(cleaned)) {
    const message = `${field} must not contain a card number.`;
    throw new PayframeError('validation_failed', message, [{ field, code: 'card_number', message }]);
  }
  return cleaned === '' ? null : cleaned;
}

/**
 * Line items under the text policy (each name) and the rules of shared/checkout/line-items.ts: at
 * most 100, and their total is the amount. Kept as written, unitAmount a decimal string.
 */
function checkedLineItems(items: readonly LineItem[], amountCents: bigint): LineItem[] {
  const named = items.map((item, i) => ({
    name: cleanText(item.name ?? '', `lineItems[${i}].name`, MAX_LINE_ITEM_NAME) ?? '',
    quantity: Number(item.quantity),
    unitAmount: String(item.unitAmount ?? ''),
  }));
  const found = lineItemsProblem(named, amountCents);
  if (found) {
    const field = found.code === 'invalid' ? `lineItems[${found.index}]` : 'lineItems';
    throw new PayframeError('validation_failed', found.message, [
      {
        field,
        code: found.code === 'line_items_total' ? 'line_items_total' : 'invalid',
        message: found.message,
      },
    ]);
  }
  return named;
}

/** A session from its row; `now` decides whether an open session has expired. */
export function sessionOfRow(r: Record<string, unknown>, now: Date): CheckoutSession {
  const expiresAt = r.expires_at as Date;
  const stored = r.status as SessionStatus;
  return {
    id: String(r.id),
    token: r.token as string,
    merchantId: String(r.merchant_id),
    amountCents: toCents(r.amount as string),
    currency: r.currency as string,
    orderNumber: r.order_number as string | null,
    email: r.email as string | null,
    firstName: r.first_name as string | null,
    lastName: r.last_name as string | null,
    address1: r.address1 as string | null,
    address2: r.address2 as string | null,
    country: r.country as string | null,
    stateProvince: r.state_province as string | null,
    city: r.city as string | null,
    zipCode: r.zip_code as string | null,
    phoneNumber: r.phone_number as string | null,
    returnUrl: r.return_url as string | null,
    cancelUrl: (r.cancel_url as string | null | undefined) ?? null,
    webhookUrl: r.webhook_url as string | null,
    locale: r.locale as string | null,
    description: (r.description as string | null | undefined) ?? null,
    lineItems: (r.line_items as LineItem[] | null | undefined) ?? null,
    paymentLink: r.payment_link === true,
    // An open session past its time is expired, whether or not a sweeper has recorded it yet.
    status: stored === 'open' && expiresAt.getTime() <= now.getTime() ? 'expired' : stored,
    transactionId: r.transaction_id === null ? null : String(r.transaction_id),
    expiresAt,
    canceledAt: (r.canceled_at as Date | null | undefined) ?? null,
    createdAt: r.created_at as Date,
  };
}

export function isSessionToken(value: string): boolean {
  return TOKEN.test(value);
}

export class CheckoutSessionStore {
  constructor(
    private readonly ttlMinutes: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(q: Queryable, merchant: Merchant, input: NewSession): Promise<CheckoutSession> {
    let cents: bigint;
    try {
      cents = toPositiveCents(input.amount);
    } catch (err) {
      if (err instanceof AmountError) throw problem('amount', err.message.replace(/^Amount /, ''));
      throw err;
    }
    const currency = (input.currency ?? 'USD').trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) throw problem('currency', 'must be a three-letter ISO 4217 code.');
    let returnUrl: string | null = null;
    if (input.returnUrl) {
      const checked = checkReturnUrl(input.returnUrl, merchant.origins);
      if ('problem' in checked) throw problem('returnUrl', URL_PROBLEM_MESSAGES[checked.problem]);
      returnUrl = checked.url;
    }
    let cancelUrl: string | null = null;
    if (input.cancelUrl) {
      const checked = checkReturnUrl(input.cancelUrl, merchant.origins);
      if ('problem' in checked) throw problem('cancelUrl', URL_PROBLEM_MESSAGES[checked.problem]);
      cancelUrl = checked.url;
    }
    let webhookUrl: string | null = null;
    if (input.webhookUrl) {
      const checked = checkUrlAnyOrigin(input.webhookUrl);
      if ('problem' in checked) throw problem('webhookUrl', URL_PROBLEM_MESSAGES[checked.problem]);
      webhookUrl = checked.url;
    }
    const locale = input.locale ? input.locale.trim() : null;
    if (locale && !/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(locale))
      throw problem('locale', 'is not a language tag.');
    const text = TEXT_FIELDS.map(([field, , max]) => cleanText(input[field], field, max));
    const description = cleanText(input.description, 'description', MAX_DESCRIPTION);
    const lineItems = input.lineItems?.length ? checkedLineItems(input.lineItems, cents) : null;
    const token = `cs_${crypto.randomBytes(32).toString('base64url')}`;
    const minutes = input.expiresInMinutes ?? this.ttlMinutes;
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_EXPIRES_IN_MINUTES)
      throw problem('expiresInMinutes', `must be a whole number from 1 to ${MAX_EXPIRES_IN_MINUTES}.`);
    const expiresAt = new Date(this.now().getTime() + minutes * 60_000);
    const { rows } = await q.query(
      `insert into checkout_sessions (token, merchant_id, amount, currency, ${TEXT_FIELDS.map(([, col]) => col).join(', ')},
         return_url, webhook_url, locale, expires_at, cancel_url, description, line_items, payment_link)
       values ($1, $2, $3, $4, ${TEXT_FIELDS.map((_, i) => `$${i + 5}`).join(', ')}, $16, $17, $18, $19, $20,
         $21, $22, $23)
       returning *`,
      [
        token,
        merchant.id,
        fromCents(cents),
        currency,
        ...text,
        returnUrl,
        webhookUrl,
        locale,
        expiresAt,
        cancelUrl,
        description,
        lineItems ? JSON.stringify(lineItems) : null,
        input.paymentLink === true,
      ],
    );
    return sessionOfRow(rows[0]!, this.now());
  }

  async getByToken(
    q: Queryable,
    token: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<CheckoutSession | null> {
    if (!isSessionToken(token)) return null;
    const { rows } = await q.query(
      `select * from checkout_sessions where token = $1${options.forUpdate ? ' for update' : ''}`,
      [token],
    );
    return rows[0] ? sessionOfRow(rows[0], this.now()) : null;
  }

  async markPaid(q: Queryable, sessionId: string, transactionId: string): Promise<void> {
    await q.query("update checkout_sessions set status = 'paid', transaction_id = $2 where id = $1", [
      sessionId,
      transactionId,
    ]);
  }

  /**
   * Cancels an open, unexpired session with no payment in flight; false otherwise. One statement,
   * so it cannot race a payment's claim (which needs the session open and unclaimed too).
   */
  async cancel(q: Queryable, sessionId: string): Promise<boolean> {
    const { rowCount } = await q.query(
      `update checkout_sessions set status = 'canceled', canceled_at = $2
       where id = $1 and status = 'open' and claim_reference is null and expires_at > $2`,
      [sessionId, this.now()],
    );
    return rowCount === 1;
  }
}
