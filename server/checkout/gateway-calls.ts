/**
 * The checkout's calls to the gateway, through the TransactionService port only, and how their
 * answers are read. Nothing here knows whether the port is in-process or SOAP.
 */

import { requiredDefaults } from '../../shared/contract/neutral.ts';
import type { PayBody } from '../../shared/checkout/pay-schemas.ts';
import type { SessionStatus } from '../../shared/checkout/session-schemas.ts';
import type { OperationResult } from '../../shared/contract/service.ts';
import type { ValueOf } from '../../shared/contract/values.ts';
import type { CallContext } from '../soap/call-context.ts';
import type { CallOrigin, CheckoutDeps, Contexts } from './deps.ts';

export const defaultContexts: Contexts = {
  service: (o: CallOrigin): CallContext => ({
    binding: 'inProcess',
    requestId: o.requestId,
    remoteAddress: o.remoteAddress,
    log: o.log,
    authorization: undefined,
    principal: { kind: 'service' },
  }),
  merchant: (o: CallOrigin, authorization: string): CallContext => ({
    binding: 'inProcess',
    requestId: o.requestId,
    remoteAddress: o.remoteAddress,
    log: o.log,
    authorization,
  }),
};

export type PaymentDetail = OperationResult<'GetHostedPaymentDetails'>;

/** The session's state from GetHostedPaymentDetails, or null when it does not exist (or is not yours). */
export function statusOf(detail: PaymentDetail): SessionStatus | null {
  if (detail.Success) return 'open';
  // The spec's PaymentDetail has no status field: the gateway's Message says it (docs/gateway.md).
  const m = detail.Message ?? '';
  if (/already been paid/i.test(m)) return 'paid';
  if (/expired/i.test(m)) return 'expired';
  if (/canceled|cancelled/i.test(m)) return 'canceled';
  return null;
}

/** The transaction named in a gateway message such as "…already been paid (transaction 42)." */
export function transactionIdIn(message: string | null | undefined): string | null {
  return /\(transaction (\d{1,19})\)/.exec(message ?? '')?.[1] ?? null;
}

export async function sessionDetails(
  deps: CheckoutDeps,
  origin: CallOrigin,
  token: string,
): Promise<{ detail: PaymentDetail; status: SessionStatus | null }> {
  const detail = await deps.port.GetHostedPaymentDetails({ token }, deps.contexts.service(origin));
  return { detail, status: statusOf(detail) };
}

export interface Branding {
  merchantId: string;
  name: string | null;
  logoUrl: string | null;
  website: string | null;
  methods: ('card' | 'ach')[];
}

/** The merchant of a session, by its token (GetMerchantDetails' `code`); never its TransactionKey. */
export async function brandingOf(deps: CheckoutDeps, origin: CallOrigin, token: string): Promise<Branding> {
  const m = await deps.port.GetMerchantDetails({ code: token }, deps.contexts.service(origin));
  const methods = (m.PaymentMethods ?? 'card')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s): s is 'card' | 'ach' => s === 'card' || s === 'ach');
  return {
    merchantId: m.MerchantId,
    name: m.BusinessName ?? null,
    logoUrl: m.Logo ?? null,
    website: m.Website ?? null,
    methods,
  };
}

type Request = ValueOf<'Request'>;

/** The session's merchant, its registered origins and the session's locale (GetCheckoutMerchant). */
export interface CheckoutMerchant {
  merchantId: string;
  origins: string[];
  locale: string | null;
}

export async function checkoutMerchantOf(
  deps: CheckoutDeps,
  origin: CallOrigin,
  token: string,
): Promise<CheckoutMerchant | null> {
  const m = await deps.port.GetCheckoutMerchant({ token }, deps.contexts.service(origin));
  if (!m.Success) return null;
  return {
    merchantId: m.MerchantId,
    origins: (m.Origins ?? '').split(' ').filter((o) => o !== ''),
    locale: m.Locale ?? null,
  };
}

/** The origins that may frame the embedded checkout and receive its events ([] when unknown). */
export async function embedOriginsOf(
  deps: CheckoutDeps,
  origin: CallOrigin,
  token: string,
): Promise<string[]> {
  return (await checkoutMerchantOf(deps, origin, token))?.origins ?? [];
}

/** Who is paying: the session's shopper contacts, and the contact a wallet credential proved. */
export interface Payer {
  email: string | null;
  phone: string | null;
  /** For a saved card: only the proven contact finds the wallet (gateway-wallet-codes.md). */
  wallet?: { channel: 'email' | 'sms'; contact: string };
}

/** A sale of the session: every Required element of Request at its neutral value, then the payment. */
export function saleRequest(token: string, body: PayBody, payer: Payer): Request {
  const base: Request = {
    ...requiredDefaults('Request'),
    // Amount 0: the session's amount is charged (the gateway takes it from the session, DESIGN.md §7).
    IsAchTransaction: body.method === 'ach',
    TransactionType: 'sale',
    HostedPaymentToken: token,
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
    // "Save this card": CreateToken with the session's e-mail puts it in that shopper's wallet —
    // the address the page shows beside the checkbox, and only that one (not the phone, which the
    // shopper was not shown).
    const save = body.saveCard && payer.email ? { CreateToken: true, Email: payer.email } : {};
    return {
      ...base,
      ...save,
      ...threeDs,
      CardNumber: body.card.number.replace(/[\s-]/g, ''),
      ExpirationDate: body.card.expiry.replace(/\s/g, ''),
      CVV2: body.card.cvv,
      CardName: body.card.name,
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
