/**
 * The session as the widget and hosted page see it (GET /api/checkout/sessions/:token, and the JSON
 * the hosted page's HTML carries): the session's fields, the merchant's branding, the methods it
 * accepts, whether 3-D Secure may be needed — never a TransactionKey or any other secret. A paid
 * session comes with its receipt, so a reload after paying shows the receipt instead of the form.
 * One gateway call (GetCheckoutSession) answers all of it.
 */
import type { WidgetSession } from '../../shared/checkout/pay-schemas.ts';
import { PayframeError } from '../errors.ts';
import type { CallOrigin } from './contexts.ts';
import type { CheckoutDeps } from './deps.ts';
import { readSessionAsService } from './gateway-calls.ts';
import { receiptOf, signedRedirectUrl } from './redirect.ts';

/**
 * Where "← Back to {merchant}" leads (issue 14 §1): the session's cancelUrl, else the home of its
 * returnUrl's origin (a registered origin of the merchant, checked when the session was made).
 */
export function backUrlOf(cancelUrl: string | null, returnUrl: string | null): string | null {
  if (cancelUrl) return cancelUrl;
  if (!returnUrl) return null;
  try {
    return `${new URL(returnUrl).origin}/`;
  } catch {
    return null;
  }
}

export async function loadWidgetSession(
  deps: CheckoutDeps,
  origin: CallOrigin,
  token: string,
): Promise<WidgetSession> {
  const session = await readSessionAsService(deps, origin, token);
  if (!session) throw new PayframeError('not_found', 'This checkout session does not exist.');
  const { merchant } = session;
  const view: WidgetSession = {
    backUrl: backUrlOf(session.cancelUrl, session.returnUrl),
    description: session.description,
    lineItems: session.lineItems,
    token,
    status: session.status,
    amount: session.amount,
    currency: session.currency,
    orderNumber: session.orderNumber,
    expiresAt: session.expiresAt?.toISOString() ?? null,
    merchant: {
      name: merchant.name,
      logoUrl: merchant.logoUrl,
      website: merchant.website,
      brandColor: merchant.brandColor,
      cornerRadius: merchant.cornerRadius,
      termsUrl: merchant.termsUrl,
      privacyUrl: merchant.privacyUrl,
    },
    methods: merchant.methods,
    locale: session.locale,
    embedOrigins: merchant.origins,
    threeDSecure: session.status === 'open' && merchant.threeDSecure,
    returnMode: merchant.returnMode,
    nameOnCardRequired: merchant.nameOnCardRequired,
    postalCode: merchant.postalCodeRequired ? 'required' : 'hidden',
    shopper: {
      email: session.shopper.email,
      firstName: session.shopper.firstName,
      lastName: session.shopper.lastName,
      zipCode: session.shopper.zipCode,
    },
  };
  // The service's own words for a session it will not resolve (spec mode), shown as they are.
  if (session.unavailableMessage !== null) view.unavailableMessage = session.unavailableMessage;
  // In front of a spec-only service there is no cancel and no removal of a saved card: not offered.
  if (deps.serviceMode === 'spec') view.capabilities = { cancel: false, removeSavedCard: false };
  if (session.payment) {
    view.receipt = receiptOf(session.payment);
    view.redirectUrl = await signedRedirectUrl(deps.signer, session.payment);
  }
  return view;
}
