/**
 * The shopper's wallet across merchants (DESIGN.md "What the spec leaves open", §6, §9; rules in
 * docs/gateway-wallet-codes.md): GetStoredCards, the extension RemoveStoredCard, and `addToWallet`
 * for a payment with CreateToken. UpdateToken is in update-token.ts, SendVerificationCode in
 * verification-operations.ts.
 *
 * GetStoredCards and RemoveStoredCard are for the checkout server only, after the shopper proved a
 * contact with a one-time code; a merchant credential is `forbidden` (the wallet spans merchants).
 * Cards are shown by their last four digits only (PCI-341-1, shopper UI).
 */
import { formatExpiryMMYY } from '../../../shared/card/expiry.ts';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import type { Queryable } from '../../db/database.ts';
import { PayframeError } from '../../errors.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import type { Principal } from '../port.ts';
import {
  type Contacts,
  hasContact,
  normalizeEmail,
  normalizePhone,
  parseContacts,
} from '../wallet/contacts.ts';
import { listCards, removeCard, saveEntry } from '../wallet/wallet-store.ts';

type Status = OperationResult<'UpdateToken'>;

/** GetStoredCards' mask: twelve asterisks and the last four, whatever the number's length. */
export function maskLastFour(last4: string): string {
  return `${'*'.repeat(12)}${last4}`;
}

export const refused = (Message: string): Status => ({ Status: false, Message });
export const NO_MATCH = 'No stored card matches this TokenGuid and contact.';

/** The wallet spans merchants: only the checkout server's credential may read or remove from it. */
export function requireService(principal: Principal, operation: string): void {
  if (principal.kind !== 'service') {
    throw new PayframeError('forbidden', `${operation} is only for the checkout server's credential.`);
  }
}

/** The contacts of a service-only wallet call; a missing or malformed one is the caller's bug: a fault. */
export function shopperContacts(
  email: string | null | undefined,
  phone: string | null | undefined,
): Contacts {
  const parsed = parseContacts({ email, phone });
  if (!parsed.ok) throw new PayframeError('invalid_request', parsed.message);
  if (!hasContact(parsed.contacts)) throw new PayframeError('invalid_request', 'Give email or phoneNumber.');
  return parsed.contacts;
}

export async function getStoredCards(
  params: OperationParams<'GetStoredCards'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'GetStoredCards'>> {
  requireService(call.principal, 'GetStoredCards');
  const contacts = shopperContacts(params.email, params.phoneNumber);
  const cards = await listCards(deps.db, contacts, deps.now());
  return cards.map((c) => ({
    TokenGuid: c.tokenGuid,
    MaskedCardNumber: maskLastFour(c.last4),
    NameOnCard: c.nameOnCard ?? undefined,
    CardType: c.brand,
    DisplayName: c.displayName ?? `${c.brand} ending in ${c.last4}`,
    // The vault's expiry, as CardDetail writes it (issue 14 §6): the shopper tells the cards apart.
    ExpirationDate: formatExpiryMMYY({ month: c.expMonth, year: c.expYear }),
  }));
}

export async function removeStoredCard(
  params: OperationParams<'RemoveStoredCard'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'RemoveStoredCard'>> {
  requireService(call.principal, 'RemoveStoredCard');
  const parsed = parseContacts({ email: params.email, phone: params.phoneNumber });
  if (!parsed.ok) return refused(parsed.message);
  if (!hasContact(parsed.contacts)) return refused('Give email or phoneNumber: the wallet is found by them.');
  const tokenGuid = params.tokenGuid?.trim();
  if (!tokenGuid) return refused('Give the tokenGuid of the card to remove.');
  const removed = await removeCard(deps.db, tokenGuid, parsed.contacts, deps.now());
  return removed > 0 ? { Status: true, Message: `Removed. TokenGuid=${tokenGuid}` } : refused(NO_MATCH);
}

export interface WalletAddition {
  /** A vault card (`cards.id`), e.g. the one an approved payment just used. */
  cardId: string;
  email?: string | null;
  phone?: string | null;
  displayName?: string | null;
  nameOnCard?: string | null;
  /** The merchant whose payment saves it. */
  merchantId: string | null;
}

/**
 * Adds a card to the shopper's wallet after a payment with CreateToken (the hook ProcessTransaction
 * calls). Contacts that are missing or not valid are left out; with none left the card is not added
 * and null comes back (a payment never fails for its wallet). Saving the same card for the same
 * contacts again answers the existing entry and keeps its names.
 */
export async function addToWallet(
  q: Queryable,
  deps: Pick<GatewayDeps, 'now'>,
  a: WalletAddition,
): Promise<{ tokenGuid: string } | null> {
  const contacts: Contacts = {
    email: a.email?.trim() ? normalizeEmail(a.email) : null,
    phone: a.phone?.trim() ? normalizePhone(a.phone) : null,
  };
  if (!hasContact(contacts)) return null;
  const { entry } = await saveEntry(
    q,
    {
      cardId: a.cardId,
      ...contacts,
      nameOnCard: a.nameOnCard?.trim() || null,
      displayName: a.displayName?.trim() || null,
      merchantId: a.merchantId,
      now: deps.now(),
    },
    false,
  );
  return { tokenGuid: entry.tokenGuid };
}
