/**
 * The checkout's calls to the gateway, through the TransactionService port only, and how their
 * answers are read: fields and enumerations of Payframe's typed extensions (DESIGN.md §16), never
 * a message's text. Nothing here knows whether the port is in-process or SOAP.
 */

import type { LineItem } from '../../shared/checkout/line-items.ts';
import type { PayBody } from '../../shared/checkout/pay-schemas.ts';
import type { SessionStatus } from '../../shared/checkout/session-schemas.ts';
import { requiredDefaults } from '../../shared/contract/neutral.ts';
import type { OperationResult } from '../../shared/contract/service.ts';
import type { ValueOf } from '../../shared/contract/values.ts';
import { PayframeError } from '../errors.ts';
import type { CallContext } from '../gateway/port.ts';
import type { Payment, ReceiptTo, SessionSnapshot } from './records.ts';
import type { CallOrigin } from './contexts.ts';
import type { CheckoutDeps } from './deps.ts';

type Detail = OperationResult<'GetCheckoutSession'>;

/** The gateway's session status enumeration, as the checkout's API names it. */
export const STATUS_OF: Record<Detail['Status'], SessionStatus> = {
  Open: 'open',
  Paid: 'paid',
  Expired: 'expired',
  Canceled: 'canceled',
};

export interface SessionMerchant {
  id: string;
  name: string | null;
  logoUrl: string | null;
  website: string | null;
  methods: ('card' | 'ach')[];
  /** The registered origins: the only pages that may frame the checkout and receive its events. */
  origins: string[];
  threeDSecure: boolean;
  /** The merchant's checkout settings (issue 14 §9, §3): ReturnMode, NameOnCardRequired. */
  returnMode: 'immediate' | 'confirmation';
  nameOnCardRequired: boolean;
  /** The merchant's branding (issue 16 "Settings"): #rrggbb, and the corner radius in pixels. */
  brandColor: string | null;
  cornerRadius: number | null;
  /** The merchant's terms of sale and privacy policy (https), linked in the page's footer. */
  termsUrl: string | null;
  privacyUrl: string | null;
  /** The card form asks for the billing postal code. */
  postalCodeRequired: boolean;
}

/** A checkout session as the gateway owns it (DESIGN.md §16), in the checkout's own terms. */
export interface GatewaySession extends SessionSnapshot {
  token: string;
  status: SessionStatus;
  /** The gateway holds a payment claim on the session: an attempt is running or was cut short. */
  paymentInProgress: boolean;
  /** While a claim is held: the latest time the gateway settles it (PaymentSettlesBy). */
  paymentSettlesBy: Date | null;
  /** When it can no longer be paid; null when the service does not say (the spec adapter). */
  expiresAt: Date | null;
  /** When it was canceled (null unless Canceled). */
  canceledAt: Date | null;
  shopper: {
    email: string | null;
    firstName: string | null;
    lastName: string | null;
    zipCode: string | null;
    phone: string | null;
  };
  /** Where the session's events go: its own webhook URL, else its merchant's endpoint; null: nowhere. */
  webhookUrl: string | null;
  /** Where the receipt e-mail of its payment goes; null: none is sent. */
  receiptTo: ReceiptTo | null;
  /** Back to the store without paying (issue 14 §1); null when the merchant gave none. */
  cancelUrl: string | null;
  /** What is bought (issue 14 §4). */
  description: string | null;
  lineItems: LineItem[] | null;
  locale: string | null;
  merchant: SessionMerchant;
  /** The payment, once paid (the gateway's record). */
  payment: Payment | null;
  /** Why it cannot be paid, in the words of the service that said so (spec mode); else null. */
  unavailableMessage: string | null;
}

const orNull = <T>(v: T | null | undefined): T | null => v ?? null;

/** What every answer about a session says of it, for the checkout's records (attempts, payments). */
export function snapshotOf(d: {
  MerchantID: string;
  MerchantName?: string | null;
  Amount: string;
  Currency?: string | null;
  OrderNumber?: string | null;
  ReturnUrl?: string | null;
  WebhookUrl?: string | null;
  MerchantWebhookUrl?: string | null;
  Email?: string | null;
  Locale?: string | null;
  ReceiptEmail?: boolean | null;
}): SessionSnapshot & { webhookUrl: string | null; receiptTo: ReceiptTo | null } {
  const email = orNull(d.Email);
  return {
    merchantId: d.MerchantID,
    merchantName: orNull(d.MerchantName),
    amount: d.Amount,
    currency: orNull(d.Currency),
    orderNumber: orNull(d.OrderNumber),
    returnUrl: orNull(d.ReturnUrl),
    // Where its events go: its own webhook URL, else its merchant's endpoint (issue 16).
    webhookUrl: orNull(d.WebhookUrl) ?? orNull(d.MerchantWebhookUrl),
    // The receipt e-mail: to the session's shopper, when its merchant sends receipts.
    receiptTo: d.ReceiptEmail === true && email ? { email, locale: orNull(d.Locale) } : null,
  };
}

/** The payment a paid answer describes (GetCheckoutSession, or PayCheckoutSession Approved/AlreadyPaid). */
export function paymentOf(
  token: string,
  d: Parameters<typeof snapshotOf>[0] & {
    TransactionID?: string | null;
    PaidAt: string | null;
    PaymentMethod?: 'Card' | 'Ach' | null;
    ApprovalCode?: string | null;
    MaskedCardNumber?: string | null;
    CardBrand?: string | null;
    RedirectSignature?: string | null;
    RedirectSignaturePrevious?: string | null;
  },
  attemptKey: string | null,
): Payment | null {
  if (!d.PaidAt) return null;
  const { webhookUrl: _, receiptTo: __, ...snapshot } = snapshotOf(d);
  return {
    ...snapshot,
    sessionToken: token,
    transactionId: orNull(d.TransactionID),
    approvalCode: orNull(d.ApprovalCode),
    maskedCard: orNull(d.MaskedCardNumber),
    cardBrand: d.PaymentMethod === 'Card' ? orNull(d.CardBrand) : null,
    method: d.PaymentMethod === 'Ach' ? 'ach' : d.PaymentMethod === 'Card' ? 'card' : null,
    paidAt: new Date(d.PaidAt),
    attemptKey,
    redirectSignature: orNull(d.RedirectSignature),
    redirectSignaturePrevious: orNull(d.RedirectSignaturePrevious),
  };
}

export function sessionOf(d: Detail): GatewaySession {
  const token = d.Token ?? '';
  return {
    token,
    status: STATUS_OF[d.Status],
    paymentInProgress: d.PaymentInProgress,
    paymentSettlesBy: d.PaymentSettlesBy ? new Date(d.PaymentSettlesBy) : null,
    ...snapshotOf(d),
    expiresAt: d.ExpiresAt ? new Date(d.ExpiresAt) : null,
    canceledAt: d.CanceledAt ? new Date(d.CanceledAt) : null,
    shopper: {
      email: orNull(d.Email),
      firstName: orNull(d.FirstName),
      lastName: orNull(d.LastName),
      zipCode: orNull(d.ZipCode),
      phone: orNull(d.PhoneNumber),
    },
    cancelUrl: orNull(d.CancelUrl),
    description: orNull(d.Description),
    lineItems: d.LineItems?.length
      ? d.LineItems.map((i) => ({
          name: i.Name ?? '',
          quantity: i.Quantity ?? 0,
          unitAmount: i.UnitAmount ?? '',
        }))
      : null,
    locale: orNull(d.Locale),
    merchant: {
      id: d.MerchantID,
      name: orNull(d.MerchantName),
      logoUrl: orNull(d.Logo),
      website: orNull(d.Website),
      methods: [...(d.AcceptsCard ? ['card' as const] : []), ...(d.AcceptsAch ? ['ach' as const] : [])],
      origins: d.Origins ?? [],
      threeDSecure: d.ThreeDSecureEnrolled,
      returnMode: d.ReturnMode === 'Confirmation' ? 'confirmation' : 'immediate',
      nameOnCardRequired: d.NameOnCardRequired,
      brandColor: orNull(d.BrandColor),
      cornerRadius: d.CornerRadius ?? null,
      termsUrl: orNull(d.TermsUrl),
      privacyUrl: orNull(d.PrivacyUrl),
      postalCodeRequired: d.PostalCodeRequired === true,
    },
    payment: paymentOf(token, d, null),
    unavailableMessage: orNull(d.UnavailableMessage),
  };
}

/**
 * The session, in one call (GetCheckoutSession as the checkout server, or as a merchant for its own
 * sessions); null when there is no such session (for this caller).
 */
export async function readSession(
  deps: CheckoutDeps,
  context: CallContext,
  token: string,
): Promise<GatewaySession | null> {
  try {
    return sessionOf(await deps.port.GetCheckoutSession({ token }, context));
  } catch (err) {
    if (err instanceof PayframeError && err.code === 'not_found') return null;
    throw err;
  }
}

/** The session as the checkout server sees it (readSession with the service context). */
export function readSessionAsService(
  deps: CheckoutDeps,
  origin: CallOrigin,
  token: string,
): Promise<GatewaySession | null> {
  return readSession(deps, deps.contexts.service(origin), token);
}

type Request = ValueOf<'Request'>;

/** Who is paying, beyond the session's own shopper (whom the gateway knows). */
export interface Payer {
  /** For a saved card: only the proven contact finds the wallet (gateway-wallet-codes.md). */
  wallet?: { channel: 'email' | 'sms'; contact: string };
}

/** A sale of the session: every Required element of Request at its neutral value, then the payment. */
export function saleRequest(body: PayBody, payer: Payer): Request {
  const base: Request = {
    ...requiredDefaults('Request'),
    // Amount 0: the session's amount is charged (the gateway takes it from the session, DESIGN.md §7).
    IsAchTransaction: body.method === 'ach',
    TransactionType: 'sale',
  };
  const threeDs =
    body.method !== 'ach' && body.threeDSecure
      ? {
          CAVV: body.threeDSecure.cavv,
          ECI: body.threeDSecure.eci,
          XID: body.threeDSecure.xid,
          DirectoryServerTransactionId: body.threeDSecure.dsTransactionId,
        }
      : {};
  if (body.method === 'card') {
    // "Save this card": the gateway puts it in the wallet of the session's e-mail — the address the
    // page shows beside the checkbox, and only that one (not the phone, which the shopper was not
    // shown); a session without an e-mail saves nothing (PayCheckoutSession).
    return {
      ...base,
      ...(body.saveCard ? { CreateToken: true } : {}),
      ...threeDs,
      CardNumber: body.card.number.replace(/[\s-]/g, ''),
      ExpirationDate: body.card.expiry.replace(/\s/g, ''),
      CVV2: body.card.cvv,
      ...(body.card.name ? { CardName: body.card.name } : {}),
      ...(body.billing?.zip ? { Zip: body.billing.zip } : {}),
    };
  }
  if (body.method === 'saved') {
    const w = payer.wallet;
    return {
      ...base,
      ...threeDs,
      SaveCardID: body.tokenGuid,
      CVV2: body.cvv,
      ...(w?.channel === 'email' ? { Email: w.contact } : {}),
      ...(w?.channel === 'sms' ? { Phone: w.contact } : {}),
    };
  }
  return {
    ...base,
    RoutingNumber: body.ach.routingNumber,
    AccountNumber: body.ach.accountNumber,
    AccountType: body.ach.accountType,
    NameOnAccount: body.ach.nameOnAccount,
  };
}

/** Last four digits for the shopper (PCI-341-1), from the gateway's mask (first six + last four). */
export function lastFour(masked: string | null | undefined): string | null {
  const digits = (masked ?? '').replace(/\D/g, '');
  return digits.length >= 4 ? `•••• ${digits.slice(-4)}` : null;
}
