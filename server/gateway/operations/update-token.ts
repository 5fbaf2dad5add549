/**
 * UpdateToken (spec "TokenRequest"; DESIGN.md "What the spec leaves open"; rules in
 * docs/gateway-wallet-codes.md "UpdateToken"): an empty TokenGuid saves a card in the shopper's
 * wallet, found by CardEmail and/or PhoneNumber; a TokenGuid updates that entry (expiry, names, or a
 * new number). IsValidateCard runs a zero-amount verification first and refuses a declined card.
 *
 * Merchants act on their own id and update only the entries they created; the checkout server any
 * entry of the shopper. Problems a merchant can act on are Status=false + Message; a successful
 * Message carries the TokenGuid, as `Saved. TokenGuid=<guid>` or `Updated. TokenGuid=<guid>`
 * (OperationStatus has no field for it). A CVV2 goes to the verification, then is dropped (PCI-331-1).
 */
import crypto from 'node:crypto';
import type { Expiry } from '../../../shared/card/expiry.ts';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import type { ValueOf } from '../../../shared/contract/values.ts';
import { PayframeError } from '../../errors.ts';
import { actOn } from '../auth.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import { validateCard } from '../vault/card-checks.ts';
import { type Contacts, hasContact, parseContacts } from '../wallet/contacts.ts';
import { findEntry, saveEntry, updateEntry, type WalletEntry } from '../wallet/wallet-store.ts';
import { NO_MATCH, refused } from './wallet-operations.ts';

type Status = OperationResult<'UpdateToken'>;
type TokenRequest = ValueOf<'TokenRequest'>;
type CardChoice = { ok: true; pan: string; expiry: Expiry } | { ok: false; message: string };

const text = (v: string | null | undefined): string | null => v?.trim() || null;

/** The merchant recorded as an entry's creator: the caller's own id, or the id the checkout server names. */
async function creator(call: GatewayCall, deps: GatewayDeps, t: TokenRequest): Promise<string | null> {
  const id = actOn(call.principal, t.MerchantID);
  if (call.principal.kind === 'merchant') {
    // DESIGN.md §6: a TransactionKey inside a message must match too.
    if (t.TransactionKey && !(await deps.merchants.verifyKey(deps.db, id, t.TransactionKey))) {
      throw new PayframeError(
        'forbidden',
        'The TransactionKey in the message does not match the credential.',
      );
    }
    return id;
  }
  if (id === '0') return null; // the checkout server saving outside any merchant
  if (!(await deps.merchants.get(deps.db, id))) {
    throw new PayframeError('not_found', 'No merchant matches this request.');
  }
  return id;
}

/** A card typed in, checked like a payment's card (CVV2 checked when given). */
function typedCard(number: string, expiry: string | Expiry, cvv: string | null, now: Date): CardChoice {
  if (expiry === '') return { ok: false, message: 'ExpirationDate is required with a CardNumber.' };
  const checked = validateCard({ number, expiry, cvv }, now);
  if (!checked.ok) return { ok: false, message: checked.message };
  if (!checked.expiry) return { ok: false, message: 'ExpirationDate is required with a CardNumber.' };
  return { ok: true, pan: checked.pan, expiry: checked.expiry };
}

/** The zero-amount verification of IsValidateCard: null when approved, else why not. */
async function declinedBy(
  deps: GatewayDeps,
  card: { pan: string; expiry: Expiry },
  t: TokenRequest,
): Promise<string | null> {
  const result = await deps.processor.authorizeCard({
    reference: `verify-${crypto.randomUUID()}`,
    pan: card.pan,
    cvv: text(t.CVV2) ?? undefined,
    expMonth: card.expiry.month,
    expYear: card.expiry.year,
    amountCents: 0n,
    zip: text(t.CardZip) ?? undefined,
    verifyOnly: true,
  });
  if (result.approved) return null;
  return `The card was declined by the verification (${result.responseCode} ${result.responseMessage})`;
}

async function createEntry(
  deps: GatewayDeps,
  t: TokenRequest,
  contacts: Contacts,
  merchantId: string | null,
): Promise<Status> {
  if (!t.CardNumber?.trim()) return refused('Give CardNumber and ExpirationDate to save a card.');
  const card = typedCard(t.CardNumber, t.ExpirationDate?.trim() ?? '', text(t.CVV2), deps.now());
  if (!card.ok) return refused(card.message);
  if (t.IsValidateCard) {
    const declined = await declinedBy(deps, card, t);
    if (declined) return refused(`${declined}; it was not saved.`);
  }
  const stored = await deps.vault.store(deps.db, {
    number: card.pan,
    expMonth: card.expiry.month,
    expYear: card.expiry.year,
  });
  const { entry } = await saveEntry(
    deps.db,
    {
      cardId: stored.id,
      ...contacts,
      nameOnCard: text(t.NameOnCard),
      displayName: text(t.DisplayName),
      merchantId,
      now: deps.now(),
    },
    true,
  );
  return { Status: true, Message: `Saved. TokenGuid=${entry.tokenGuid}` };
}

/** The card an update leaves: a new number, the same number with a new expiry, or (null) unchanged. */
async function updatedCard(
  deps: GatewayDeps,
  t: TokenRequest,
  entry: WalletEntry,
): Promise<CardChoice | null> {
  const now = deps.now();
  if (t.CardNumber?.trim()) return typedCard(t.CardNumber, t.ExpirationDate?.trim() ?? '', text(t.CVV2), now);
  if (!t.ExpirationDate?.trim() && !t.IsValidateCard) return null;
  const pan = await deps.vault.reveal(deps.db, entry.cardId);
  if (t.ExpirationDate?.trim()) return typedCard(pan, t.ExpirationDate.trim(), text(t.CVV2), now);
  const current = await deps.vault.get(deps.db, entry.cardId);
  if (!current) throw new Error(`Wallet entry points at a missing card ${entry.cardId}.`);
  return typedCard(pan, { month: current.expMonth, year: current.expYear }, text(t.CVV2), now);
}

async function changeEntry(
  deps: GatewayDeps,
  t: TokenRequest,
  contacts: Contacts,
  merchantId: string | null,
): Promise<Status> {
  const entry = await findEntry(deps.db, t.TokenGuid?.trim() ?? '', contacts, merchantId);
  if (!entry) return refused(NO_MATCH);
  const card = await updatedCard(deps, t, entry);
  if (card && !card.ok) return refused(card.message);
  if (card && t.IsValidateCard) {
    const declined = await declinedBy(deps, card, t);
    if (declined) return refused(`${declined}; nothing was changed.`);
  }
  const nameOnCard = text(t.NameOnCard) ?? entry.nameOnCard;
  const cardId = card
    ? (
        await deps.vault.store(deps.db, {
          number: card.pan,
          expMonth: card.expiry.month,
          expYear: card.expiry.year,
        })
      ).id
    : entry.cardId;
  const displayName = text(t.DisplayName) ?? entry.displayName;
  const outcome = await updateEntry(deps.db, entry, { cardId, nameOnCard, displayName }, deps.now());
  if (!outcome.ok) {
    return refused(`This card is already in the shopper's wallet. TokenGuid=${outcome.duplicateOf}`);
  }
  return { Status: true, Message: `Updated. TokenGuid=${entry.tokenGuid}` };
}

export async function updateToken(
  params: OperationParams<'UpdateToken'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'UpdateToken'>> {
  const t = params.token;
  if (!t) throw new PayframeError('invalid_request', 'The token element is required.');
  const merchantId = await creator(call, deps, t);
  const parsed = parseContacts({
    email: t.CardEmail,
    phone: t.PhoneNumber,
    emailField: 'CardEmail',
    phoneField: 'PhoneNumber',
  });
  if (!parsed.ok) return refused(parsed.message);
  if (!hasContact(parsed.contacts))
    return refused('Give CardEmail or PhoneNumber: the wallet is found by them.');
  if (!t.TokenGuid?.trim()) return createEntry(deps, t, parsed.contacts, merchantId);
  // A merchant updates only the entries it created; the checkout server any entry of the shopper.
  return changeEntry(deps, t, parsed.contacts, call.principal.kind === 'merchant' ? merchantId : null);
}
