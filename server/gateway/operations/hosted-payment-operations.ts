/**
 * Checkout sessions on the Transaction Service: the extension CreateHostedPayment, and the spec's
 * GetHostedPaymentDetails, which answers Success=false with a Message for a token that is unknown,
 * expired or already paid.
 */
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import { fromCents } from '../../../shared/money.ts';
import { PayframeError } from '../../errors.ts';
import { actOn } from '../auth.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import { awaitClaim } from '../payments/claim-sweep.ts';
import type { CheckoutSession } from '../sessions/checkout-session-store.ts';

export function checkoutUrl(deps: GatewayDeps, token: string): string {
  return `${deps.checkoutPublicUrl ?? deps.publicUrl}/pay/${token}`;
}

export async function createHostedPayment(
  params: OperationParams<'CreateHostedPayment'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'CreateHostedPayment'>> {
  const r = params.request;
  if (!r) throw new PayframeError('invalid_request', 'The request element is required.');
  const merchantId = actOn(call.principal, r.MerchantID);
  if (call.principal.kind !== 'merchant')
    throw new PayframeError('forbidden', 'Only a merchant may create checkout sessions.');
  // DESIGN.md §6: a TransactionKey inside a message must match too.
  if (r.TransactionKey && !(await deps.merchants.verifyKey(deps.db, merchantId, r.TransactionKey))) {
    throw new PayframeError('forbidden', 'The TransactionKey in the message does not match the credential.');
  }
  // Read with the credential check already (one round trip less); in-process callers read it here.
  const merchant =
    call.merchant?.id === merchantId ? call.merchant : await deps.merchants.get(deps.db, merchantId);
  if (!merchant) throw new PayframeError('not_found', 'No merchant matches this request.');
  try {
    const session = await deps.sessions.create(deps.db, merchant, {
      amount: r.Amount,
      currency: r.Currency,
      orderNumber: r.OrderNumber,
      email: r.Email,
      firstName: r.FirstName,
      lastName: r.LastName,
      address1: r.Address1,
      address2: r.Address2,
      country: r.Country,
      stateProvince: r.StateProvince,
      city: r.City,
      zipCode: r.ZipCode,
      phoneNumber: r.PhoneNumber,
      returnUrl: r.ReturnUrl,
      cancelUrl: r.CancelUrl,
      description: r.Description,
      lineItems: r.LineItems?.map((i) => ({
        name: i.Name ?? '',
        quantity: i.Quantity ?? 0,
        unitAmount: i.UnitAmount ?? '',
      })),
      webhookUrl: r.WebhookUrl,
      locale: r.Locale,
      expiresInMinutes: r.ExpiresInMinutes,
      paymentLink: r.PaymentLink,
    });
    return {
      Success: true,
      Message: 'Checkout session created.',
      Token: session.token,
      Url: checkoutUrl(deps, session.token),
      ExpiresAt: session.expiresAt.toISOString(),
    };
  } catch (err) {
    if (err instanceof PayframeError && err.code === 'validation_failed') {
      // The field as a name the caller can act on (REST maps it to its own), the message for people.
      return { Success: false, Message: err.message, ErrorField: err.fields?.[0]?.field, ExpiresAt: null };
    }
    throw err;
  }
}

const UNAVAILABLE: Record<Exclude<CheckoutSession['status'], 'open'>, string> = {
  paid: 'This checkout session has already been paid.',
  expired: 'This checkout session has expired.',
  canceled: 'This checkout session was canceled.',
};

export async function getHostedPaymentDetails(
  params: OperationParams<'GetHostedPaymentDetails'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetHostedPaymentDetails'>> {
  const token = params.token?.trim() ?? '';
  const session = token ? await deps.sessions.getByToken(deps.db, token) : null;
  const visible =
    session && (call.principal.kind !== 'merchant' || call.principal.merchantId === session.merchantId);
  if (!session || !visible)
    return { Success: false, Message: 'This checkout session does not exist.', Amount: '0.00' };
  const merchant = await deps.merchants.get(deps.db, session.merchantId);
  const base = {
    Amount: fromCents(session.amountCents),
    MerchantName: merchant?.businessName ?? merchant?.name,
    OrderNumber: session.orderNumber ?? undefined,
  };
  if (session.status !== 'open') {
    // A paid session names its transaction, as ProcessTransaction's `94` does, so the checkout
    // server can confirm the payment it recovers.
    const message =
      session.status === 'paid' && session.transactionId
        ? `${UNAVAILABLE.paid.slice(0, -1)} (transaction ${session.transactionId}).`
        : UNAVAILABLE[session.status];
    return { Success: false, Message: message, ...base };
  }
  return {
    Success: true,
    Message: 'Open',
    ...base,
    Email: session.email ?? undefined,
    FirstName: session.firstName ?? undefined,
    LastName: session.lastName ?? undefined,
    Address1: session.address1 ?? undefined,
    Address2: session.address2 ?? undefined,
    Country: session.country ?? undefined,
    StateProvince: session.stateProvince ?? undefined,
    City: session.city ?? undefined,
    ZipCode: session.zipCode ?? undefined,
    PhoneNumber: session.phoneNumber ?? undefined,
    ReturnUrl: session.returnUrl ?? undefined,
  };
}

/**
 * CancelHostedPayment (extension): the shopper gave up (checkout server) or the merchant withdrew
 * the offer (its own sessions). Refused while a payment is in flight, so a cancel never hides a
 * charge; a paid, expired or canceled session answers what it is.
 */
export async function cancelHostedPayment(
  params: OperationParams<'CancelHostedPayment'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'CancelHostedPayment'>> {
  const token = params.token?.trim() ?? '';
  const session = token ? await deps.sessions.getByToken(deps.db, token) : null;
  const visible =
    session && (call.principal.kind !== 'merchant' || call.principal.merchantId === session.merchantId);
  if (!session || !visible) return { Status: false, Message: 'This checkout session does not exist.' };
  if (session.status !== 'open') return { Status: false, Message: UNAVAILABLE[session.status] };
  if (await deps.sessions.cancel(deps.db, session.id)) {
    return { Status: true, Message: 'This checkout session was canceled.' };
  }
  // A payment claim is held: its verdict first (bounded; a cut-short one is settled now), then the
  // truth — paid: not canceled; not charged: canceled.
  if ((await awaitClaim(deps, session.id)) && (await deps.sessions.cancel(deps.db, session.id))) {
    return { Status: true, Message: 'This checkout session was canceled.' };
  }
  const now = await deps.sessions.getByToken(deps.db, token);
  return {
    Status: false,
    Message:
      now && now.status !== 'open'
        ? UNAVAILABLE[now.status]
        : 'A payment for this checkout session is in progress.',
  };
}
