/**
 * What to tell a shopper for a gateway ResponseCode (docs/test-cards.md "Response codes"), so the
 * server's answers and the widget say the same thing. Unknown codes get a generic message.
 */
const CARD: Record<string, string> = {
  '05': 'Your card was declined. Please use another card.',
  '51': 'Your card was declined. Please use another card.',
  '10': 'Your card approved only part of the amount. Please use another card.',
  '54': 'This card has expired.',
  '14': 'Please check the card number.',
  N7: 'Please check the security code.',
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
