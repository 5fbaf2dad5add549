/**
 * What the server itself says to a shopper, in English: the one-time code's e-mail and SMS
 * (server/checkout/wallet-routes.ts) and the sandbox bank's 3-D Secure pages
 * (server/gateway/three-ds/three-ds-page.ts). Its keys make the `ShopperTexts` type, so another
 * language missing one does not compile; `{placeholders}` are filled by `fill` (index.ts).
 */
export const en = {
  otpSms:
    '{code} is your Payframe code to use your saved cards at {merchant}. It expires in {minutes} minutes. Never share it.',
  otpSubject: 'Your Payframe code: {code}',
  otpEmail:
    'Your code to use your saved cards at {merchant} is {code}.\n\n' +
    'It expires in {minutes} minutes (at {until}) and works once. ' +
    'Payframe will never ask you for it by phone or e-mail. If you did not ask for it, ignore this message.',
  /** The merchant when the session names none; it fills `{merchant}` above. */
  otpMerchant: 'the merchant',
  tdsBank: 'Payframe test bank',
  tdsSandbox: 'Sandbox',
  tdsChallengeTitle: 'Payframe test bank — verify this payment',
  tdsChallengeHeading: 'Verify this payment',
  tdsIntro: 'This is a test 3-D Secure check. No real bank is involved and no money moves.',
  tdsMerchant: 'Merchant',
  tdsAmount: 'Amount',
  /** `{time}` is the expiry as an HTML `<time>` element ("14:05 UTC"). */
  tdsChoose: 'Choose the result of this test verification. It expires at {time}.',
  tdsAuthenticate: 'Authenticate',
  tdsFail: 'Fail authentication',
  tdsFailedHeading: 'Verification failed',
  tdsFailedBody:
    'You chose to fail the verification. The payment will not go through with this check; you can return to the checkout and try again.',
  tdsVerifiedHeading: 'Payment verified',
  tdsVerifiedBody: 'The payment was verified. You can return to the checkout to finish paying.',
  tdsUsed: 'This result has already been used for a payment.',
  tdsDevHeading: 'Values for developers',
  tdsDevNote: 'Send these with ProcessTransaction (CAVV, ECI, XID, DirectoryServerTransactionId).',
  tdsDsTransactionId: 'DS transaction id',
  tds400Heading: 'Choose a result',
  tds400Body: 'Choose “Authenticate” or “Fail authentication” to continue.',
  tds403Heading: 'Request refused',
  tds403Body: 'This verification can only be answered from its own page.',
  tds404Heading: 'Verification not found',
  tds404Body: 'This verification does not exist. Return to the checkout and try again.',
  tds410Heading: 'This verification has expired',
  tds410Body:
    'The time to answer this verification has run out. Return to the checkout and start the payment again.',
  /** The receipt e-mail after an approved payment (server/checkout/receipts.ts); {last4}: 4 digits. */
  receiptSubject: 'Your receipt from {merchant}',
  receiptIntro: 'Thank you for your payment to {merchant}. Here is your receipt.',
  receiptMerchant: 'Merchant',
  receiptOrder: 'Order',
  receiptAmount: 'Amount',
  receiptPaidWith: 'Paid with',
  receiptTransaction: 'Transaction ID',
  receiptDate: 'Date',
  receiptCard: '{brand} ending in {last4}',
  receiptCardNoBrand: 'Card ending in {last4}',
  receiptChecking: 'Checking account ending in {last4}',
  receiptSavings: 'Savings account ending in {last4}',
  receiptBusinessChecking: 'Business checking account ending in {last4}',
  receiptBankAccount: 'Bank account ending in {last4}',
  receiptFooter: 'Keep this e-mail for your records. For questions about your order, contact {merchant}.',
} satisfies Record<string, string>;

export type ShopperTexts = typeof en;
export type ShopperTextKey = keyof ShopperTexts;
