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

export function declineMessage(code: string, method: 'card' | 'ach'): string {
  return (
    (method === 'ach' ? ACH[code] : CARD[code]) ??
    'The payment was declined. Please check the details or use another payment method.'
  );
}
