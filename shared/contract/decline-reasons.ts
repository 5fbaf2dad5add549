/**
 * The decline reason of an ISO 8583 (or NACHA) response code: the gateway's typed answer to the
 * checkout (PayCheckoutSession, GetPayment), and the checkout's own reading of a code when the
 * Transaction Service in front of which it runs gives only the code (spec mode). Meanings are in
 * docs/gateway.md and docs/test-cards.md.
 */
import type { DeclineReason } from './payment-enumerations.ts';

/** The decline reason of an ISO 8583 (or NACHA) response code, as a code the checkout can act on. */
export function declineReasonOf(code: string, method: 'card' | 'ach', partial: boolean): DeclineReason {
  if (partial || code === '10') return 'PartialApproval';
  switch (code) {
    case '05':
      return 'CardDeclined';
    case '51':
      return 'InsufficientFunds';
    case '54':
      return 'ExpiredCard';
    case '14':
      return method === 'ach' ? 'InvalidAccount' : 'InvalidCardNumber';
    case 'N7':
      return 'IncorrectCvc';
    case '65':
      return 'AuthenticationFailed';
    case '57':
      return 'MethodNotAccepted';
    case 'R01':
      return 'BankDeclined';
    case 'R04':
      return 'InvalidAccount';
    case 'R28':
      return 'InvalidRoutingNumber';
    case '03':
    case '12':
    case '13':
    case '30':
      return 'InvalidRequest';
    case '91':
    case '96':
      return 'ProcessorError';
    default:
      return method === 'ach' ? 'BankDeclined' : 'CardDeclined';
  }
}

/** The field a decline concerns, for the page to mark it; null when it concerns none. */
export function declinedFieldOf(
  reason: DeclineReason,
): 'card.number' | 'card.expiry' | 'card.cvv' | 'ach.accountNumber' | 'ach.routingNumber' | null {
  switch (reason) {
    case 'IncorrectCvc':
      return 'card.cvv';
    case 'ExpiredCard':
      return 'card.expiry';
    case 'InvalidCardNumber':
      return 'card.number';
    case 'InvalidAccount':
      return 'ach.accountNumber';
    case 'InvalidRoutingNumber':
      return 'ach.routingNumber';
    default:
      return null;
  }
}
