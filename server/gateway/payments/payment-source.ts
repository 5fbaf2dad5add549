/**
 * Where the money of a sale or auth comes from: a card typed in (CardNumber, ExpirationDate,
 * CVV2), a stored token (SaveCardID), or a bank account (IsAchTransaction). Problems come back as
 * ISO 8583 response codes a merchant can act on, not as faults.
 */
import { abaRoutingValid, bankAccountNumberValid } from '../../../shared/card/bank-account.ts';
import { expiryInPast } from '../../../shared/card/expiry.ts';
import type { ValueOf } from '../../../shared/contract/values.ts';
import type { Queryable } from '../../db/database.ts';
import type { GatewayDeps } from '../gateway-call.ts';
import { maskAccount, validateCard } from '../vault/card-checks.ts';
import type { StoredCard } from '../vault/card-vault.ts';
import { normalizeEmail, normalizePhone } from '../wallet/contacts.ts';
import { walletCardId } from '../wallet/wallet-store.ts';

export type Request = ValueOf<'Request'>;

export type Source =
  | {
      kind: 'card';
      card: StoredCard;
      /** The PAN, in memory only, for the processor call: read once, never logged or returned. */
      pan: string;
      cvv: string | undefined;
      fromToken: boolean;
      /**
       * The name for this payment: the one sent with it, else the one this merchant's token or the
       * shopper's wallet entry holds — never what another merchant sent for the same card.
       */
      nameOnCard: string | null;
    }
  | {
      kind: 'ach';
      routingNumber: string;
      accountNumber: string;
      accountType: string;
      nameOnAccount: string | null;
    };

/** A request problem, answered as a Response with this ISO 8583 code and message (nothing recorded). */
export class RequestProblem extends Error {
  constructor(
    readonly responseCode: string,
    message: string,
    /** The checkout's reason when the response code alone does not tell it (NameOnCardRequired). */
    readonly reason?: 'NameOnCardRequired',
  ) {
    super(message);
    this.name = 'RequestProblem';
  }
}

const ACCOUNT_TYPES = new Set(['checking', 'savings', 'businesschecking']);

function achSource(r: Request): Source {
  const routing = (r.RoutingNumber ?? '').replace(/\s/g, '');
  const account = (r.AccountNumber ?? '').replace(/\s/g, '');
  if (!abaRoutingValid(routing)) {
    throw new RequestProblem('14', 'The routing number is not a valid ABA routing number.');
  }
  if (!bankAccountNumberValid(account))
    throw new RequestProblem('14', 'The account number must be 4 to 17 digits.');
  const type = (r.AccountType || r.BankAccountType || 'checking').toLowerCase().replace(/[\s_-]/g, '');
  if (!ACCOUNT_TYPES.has(type)) {
    throw new RequestProblem('12', "AccountType must be 'checking', 'savings' or 'businessChecking'.");
  }
  return {
    kind: 'ach',
    routingNumber: routing,
    accountNumber: account,
    accountType: type,
    nameOnAccount: r.NameOnAccount?.trim() || null,
  };
}

async function tokenSource(
  q: Queryable,
  deps: GatewayDeps,
  merchantId: string,
  token: string,
  r: Request,
  allowWallet: boolean,
): Promise<Source> {
  const { rows } = await q.query<{ card_id: string; name_on_card: string | null }>(
    'select card_id, name_on_card from card_tokens where token = $1 and merchant_id = $2',
    [token.trim(), merchantId],
  );
  let cardId = rows[0]?.card_id ?? null;
  let storedName = rows[0]?.name_on_card ?? null;
  if (!cardId && allowWallet) {
    // The checkout server pays with a shopper's wallet card (a TokenGuid) after the shopper proved
    // the contact with a one-time code; the CVV is asked again (security-requirements.md OTP-12).
    const contacts = {
      email: r.Email?.trim() ? normalizeEmail(r.Email) : null,
      phone: r.Phone?.trim() ? normalizePhone(r.Phone) : null,
    };
    const entry = await walletCardId(q, token.trim(), contacts, deps.now());
    cardId = entry?.cardId ?? null;
    storedName = entry?.nameOnCard ?? null;
    if (cardId && !r.CVV2?.trim())
      throw new RequestProblem('N7', 'The security code is required to pay with a saved card.');
  }
  const found = cardId ? await deps.vault.getWithPan(q, cardId) : null;
  if (!found) throw new RequestProblem('14', 'SaveCardID does not name a stored card of this merchant.');
  const { card, pan } = found;
  if (expiryInPast(card.expMonth, card.expYear, deps.now()))
    throw new RequestProblem('54', 'The stored card has expired.');
  return {
    kind: 'card',
    card,
    pan,
    cvv: r.CVV2?.trim() || undefined,
    fromToken: true,
    nameOnCard: sentName(r) ?? storedName,
  };
}

/** The name sent with the request: CardName, else FirstName and LastName; null when none. */
export function sentName(r: Request): string | null {
  return r.CardName?.trim() || [r.FirstName?.trim(), r.LastName?.trim()].filter(Boolean).join(' ') || null;
}

export function hasCardInput(r: Request): boolean {
  return !!r.CardNumber?.trim();
}

export async function resolveSource(
  q: Queryable,
  deps: GatewayDeps,
  merchantId: string,
  r: Request,
  options: { allowWallet?: boolean } = {},
): Promise<Source> {
  if (r.IsAchTransaction) return achSource(r);
  if (r.SaveCardID?.trim())
    return tokenSource(q, deps, merchantId, r.SaveCardID, r, options.allowWallet ?? false);
  if (!hasCardInput(r))
    throw new RequestProblem('30', 'Give CardNumber and ExpirationDate, a SaveCardID, or an ACH account.');
  if (!r.ExpirationDate?.trim())
    throw new RequestProblem('30', 'ExpirationDate is required with a CardNumber.');
  const checked = validateCard(
    { number: r.CardNumber ?? '', expiry: r.ExpirationDate ?? '', cvv: r.CVV2?.trim() || null },
    deps.now(),
  );
  if (!checked.ok) {
    const code = checked.reason === 'expired' ? '54' : checked.reason === 'invalid_cvv' ? 'N7' : '14';
    throw new RequestProblem(code, checked.message);
  }
  if (!checked.expiry) throw new RequestProblem('30', 'ExpirationDate is required with a CardNumber.');
  const card = await deps.vault.store(q, {
    number: checked.pan,
    expMonth: checked.expiry.month,
    expYear: checked.expiry.year,
  });
  return {
    kind: 'card',
    card,
    pan: checked.pan,
    cvv: r.CVV2?.trim() || undefined,
    fromToken: false,
    nameOnCard: sentName(r),
  };
}

export function sourceSummary(s: Source): {
  method: 'card' | 'ach';
  masked: string;
  /** The card's brand from its BIN (the vault's); null for a bank account. */
  brand: string | null;
  nameOnCard: string | null;
} {
  return s.kind === 'card'
    ? { method: 'card', masked: s.card.masked, brand: s.card.brand, nameOnCard: s.nameOnCard }
    : { method: 'ach', masked: maskAccount(s.accountNumber), brand: null, nameOnCard: s.nameOnAccount };
}
