/**
 * The server's per-field errors (`error.fields[].field`, paths of the PayBody) on the form's own
 * inputs, in the shopper's language. The server's check is the authoritative one.
 */
import type { DeclinedField } from '../../../shared/checkout/index.ts';
import type { AchValues, CardValues, Problem, Problems } from './card.ts';

const CARD: Record<string, [keyof CardValues, Problem]> = {
  'card.number': ['number', { key: 'errCardNumber' }],
  'card.expiry': ['expiry', { key: 'errExpiryFormat' }],
  'card.cvv': ['cvv', { key: 'errInvalid' }],
  'card.name': ['name', { key: 'errNameRequired' }],
  'billing.zip': ['zip', { key: 'errInvalid' }],
};
const ACH: Record<string, [keyof AchValues, Problem]> = {
  'ach.routingNumber': ['routing', { key: 'errRouting' }],
  'ach.accountNumber': ['account', { key: 'errAccount' }],
  'ach.nameOnAccount': ['name', { key: 'errNameOnAccount' }],
  'ach.authorized': ['authorized', { key: 'errAuthorize' }],
};

export interface ServerProblems {
  card: Problems<CardValues>;
  ach: Problems<AchValues>;
  count: number;
}

export const NO_PROBLEMS: ServerProblems = { card: {}, ach: {}, count: 0 };

export function serverProblems(fields: { field: string }[] | undefined): ServerProblems {
  const out: ServerProblems = { card: {}, ach: {}, count: 0 };
  for (const f of fields ?? []) {
    const c = CARD[f.field];
    const a = ACH[f.field];
    if (c) out.card[c[0]] = c[1];
    else if (a) out.ach[a[0]] = a[1];
    else continue;
    out.count++;
  }
  return out;
}

/** A decline at the one field it concerns (`field` from the server), in the shopper's words. */
export function declineProblems(field: DeclinedField | null, text: string): ServerProblems {
  const problem: Problem = { text };
  switch (field) {
    case 'card.number':
      return { card: { number: problem }, ach: {}, count: 1 };
    case 'card.expiry':
      return { card: { expiry: problem }, ach: {}, count: 1 };
    case 'card.cvv':
      return { card: { cvv: problem }, ach: {}, count: 1 };
    case 'ach.accountNumber':
      return { card: {}, ach: { account: problem }, count: 1 };
    case 'ach.routingNumber':
      return { card: {}, ach: { routing: problem }, count: 1 };
    default:
      return NO_PROBLEMS;
  }
}
