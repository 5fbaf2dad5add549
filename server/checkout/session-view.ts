/**
 * The session as the widget and hosted page see it (GET /api/checkout/sessions/:token): the
 * PaymentDetail fields, the merchant's branding, the methods it accepts, whether 3-D Secure may be
 * needed — never a TransactionKey or any other secret. A paid session comes with its receipt, so a
 * reload after paying shows the receipt instead of the form.
 */
import type { WidgetSession } from '../../shared/checkout/pay-schemas.ts';
import { PayframeError } from '../errors.ts';
import { paymentOfSession } from './attempts.ts';
import type { CallOrigin, CheckoutDeps } from './deps.ts';
import { brandingOf, checkoutMerchantOf, sessionDetails } from './gateway-calls.ts';
import { receiptOf, signedRedirectUrl } from './redirect.ts';
import { getSessionMeta } from './session-meta.ts';

export async function loadWidgetSession(
  deps: CheckoutDeps,
  origin: CallOrigin,
  token: string,
): Promise<WidgetSession> {
  const { detail, status } = await sessionDetails(deps, origin, token);
  if (status === null) throw new PayframeError('not_found', 'This checkout session does not exist.');
  const [branding, merchant] = await Promise.all([
    brandingOf(deps, origin, token),
    checkoutMerchantOf(deps, origin, token),
  ]);
  const threeDSecure =
    status === 'open'
      ? await deps.port.Verify3DSecureMerchant(
          { merchantID: branding.merchantId },
          deps.contexts.service(origin),
        )
      : false;
  const meta = await getSessionMeta(deps.db, token);
  const view: WidgetSession = {
    token,
    status,
    amount: detail.Amount,
    currency: meta?.currency ?? null,
    orderNumber: detail.OrderNumber ?? null,
    expiresAt: meta?.expiresAt.toISOString() ?? null,
    merchant: {
      name: detail.MerchantName ?? branding.name,
      logoUrl: branding.logoUrl,
      website: branding.website,
    },
    methods: branding.methods,
    locale: merchant?.locale ?? null,
    embedOrigins: merchant?.origins ?? [],
    threeDSecure,
    shopper: {
      email: detail.Email ?? null,
      firstName: detail.FirstName ?? null,
      lastName: detail.LastName ?? null,
      zipCode: detail.ZipCode ?? null,
    },
  };
  if (status === 'paid') {
    const payment = await paymentOfSession(deps.db, token);
    if (payment) {
      view.receipt = receiptOf(payment);
      view.redirectUrl = await signedRedirectUrl(deps.signer, payment);
    }
  }
  return view;
}
