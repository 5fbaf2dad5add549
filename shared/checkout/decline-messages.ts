/**
 * What to tell a shopper for a gateway ResponseCode (docs/test-cards.md "Response codes"), so the
 * server's answers and the widget say the same thing. Each decline family says what happened and
 * what to do (issue 14 §5): do not honor, insufficient funds, expired card, incorrect CVC each have
 * their own words. Unknown codes get a generic message.
 */
const CARD: Record<string, string> = {
  '05': 'Your card was declined. Please use another card.',
  '51': 'Your card does not have enough funds for this payment. Please use another card.',
  '10': 'Your card approved only part of the amount. Please use another card.',
  '54': 'This card has expired. Please use another card.',
  '14': 'Please check the card number.',
  N7: 'The security code is incorrect. Check the 3 or 4 digits on your card and try again.',
  '65': 'Your bank could not authenticate this payment. Please try again or use another card.',
  '57': 'This payment method is not accepted here.',
};

const ACH: Record<string, string> = {
  R01: 'The bank declined the payment.',
  R04: 'Please check the account number.',
  R28: 'Please check the routing number.',
  '14': 'Please check the routing and account numbers.',
  '57': 'This payment method is not accepted here.',
};

/** The codes with a message of their own: every language of the page words each of them. */
export const DECLINE_CODES = { card: Object.keys(CARD), ach: Object.keys(ACH) } as const;

export function declineMessage(code: string, method: 'card' | 'ach'): string {
  return (
    (method === 'ach' ? ACH[code] : CARD[code]) ??
    'The payment was declined. Please check the details or use another payment method.'
  );
}

/**
 * The family of a decline, for the host page's `error` event (issue 14 §11): a stable word a
 * merchant's code can branch on, where the ResponseCode is the gateway's and the message the
 * shopper's. `declined` for any other decline.
 */
export const DECLINE_FAMILIES = [
  'do_not_honor',
  'insufficient_funds',
  'partial_approval',
  'expired_card',
  'incorrect_number',
  'incorrect_cvc',
  'authentication_failed',
  'method_not_accepted',
  'incorrect_account',
  'incorrect_routing',
  'declined',
] as const;
export type DeclineFamily = (typeof DECLINE_FAMILIES)[number];

const CARD_FAMILY: Record<string, DeclineFamily> = {
  '05': 'do_not_honor',
  '51': 'insufficient_funds',
  '10': 'partial_approval',
  '54': 'expired_card',
  '14': 'incorrect_number',
  N7: 'incorrect_cvc',
  '65': 'authentication_failed',
  '57': 'method_not_accepted',
};

const ACH_FAMILY: Record<string, DeclineFamily> = {
  R01: 'insufficient_funds',
  R04: 'incorrect_account',
  R28: 'incorrect_routing',
  '14': 'incorrect_account',
  '57': 'method_not_accepted',
};

export function declineFamily(code: string, method: 'card' | 'ach'): DeclineFamily {
  const table = method === 'ach' ? ACH_FAMILY : CARD_FAMILY;
  return Object.hasOwn(table, code) ? table[code]! : 'declined';
}
