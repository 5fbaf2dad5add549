/**
 * Who is calling the gateway (DESIGN.md §6). The spec defines no credential, so Payframe adds the
 * one every SOAP client supports: HTTP Basic on the transport.
 *   - a merchant: `MerchantID:TransactionKey`, acting only on its own merchant id;
 *   - the checkout server: the service credential (`GATEWAY_SERVICE_KEY`), limited to the
 *     hosted-payment operations;
 *   - nobody: only Login and ForgotPassword (and ?WSDL, the help pages) are public.
 */
export type Principal =
  | { readonly kind: 'merchant'; readonly merchantId: string }
  | { readonly kind: 'service' }
  | { readonly kind: 'anonymous' };

/** Operations the checkout server's service credential may call (DESIGN.md §6). */
export const SERVICE_OPERATIONS: ReadonlySet<string> = new Set([
  'GetHostedPaymentDetails',
  'GetMerchantDetails',
  'Verify3DSecureMerchant',
  'SendVerificationCode',
  'GetStoredCards',
  'UpdateToken',
  'RemoveStoredCard',
  'GetCheckoutMerchant',
  'CancelHostedPayment',
  'ProcessTransaction',
  'SignForMerchant',
]);

/**
 * Operations only the checkout server may call: the shopper's cross-merchant wallet and its codes
 * are reached after the shopper proved a contact with a one-time code (DESIGN.md §9), which a
 * merchant's credential cannot show; and signing under a merchant's TransactionKey.
 */
export const SERVICE_ONLY_OPERATIONS: ReadonlySet<string> = new Set([
  'GetStoredCards',
  'SendVerificationCode',
  'RemoveStoredCard',
  'GetCheckoutMerchant',
  // Signs under any merchant's key: a merchant credential has no business here (sign-operations.ts).
  'SignForMerchant',
]);

/** Operations anyone may call. */
export const PUBLIC_OPERATIONS: ReadonlySet<string> = new Set(['Login', 'ForgotPassword']);
