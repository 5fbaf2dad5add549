/**
 * The card vault (DESIGN.md §5): stores a card in `cards` with its PAN encrypted (AES-256-GCM under
 * the PAN sub-key, keys.ts), a keyed fingerprint to find it again, and only the BIN and last four in
 * the clear (security-requirements.md PCI-341-1, PCI-351-1, PCI-3511-1). A CVV is never an input.
 *
 * The same PAN and expiry stored twice give one card: its id is keyed on both (VaultKeys.cardId), so
 * the row is claimed with `insert … on conflict`, even by two instances at once.
 *
 * That row is shared by every merchant and shopper who uses the card, so it holds nothing that is
 * theirs: no name (issue 13 §13). The name on a card travels with what it was sent for — the
 * transaction, the merchant's token or payment profile, the shopper's wallet entry.
 */
import { normalizeCardNumber, validCardNumber } from '../../../shared/card/card-number.ts';
import { expiryInRange } from '../../../shared/card/expiry.ts';
import type { Queryable } from '../../db/database.ts';
import { PayframeError } from '../../errors.ts';
import { type CardBrand, cardBrand, maskPan, panParts } from './card-checks.ts';
import type { VaultKeys } from './keys.ts';

export interface StoredCard {
  /** Opaque: 'card_' + 24 hex digits. */
  id: string;
  brand: CardBrand;
  /** The first six digits (four on a 12-digit number). */
  bin: string;
  last4: string;
  /** At most first six + last four, e.g. '424242******4242' (MaskedCardNumber). */
  masked: string;
  expMonth: number;
  expYear: number;
  fingerprint: string;
}

export interface CardInput {
  number: string;
  expMonth: number;
  /** Four digits; two are read as 20YY. */
  expYear: number;
}

interface CardRow {
  id: string;
  pan_enc: string;
  key_id: string;
  fingerprint: string;
  brand: string;
  bin: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

const COLUMNS = 'id, pan_enc, key_id, fingerprint, brand, bin, last4, exp_month, exp_year';

function invalid(field: 'number' | 'expiry', message: string): PayframeError {
  return new PayframeError('validation_failed', message, [
    { field, code: field === 'number' ? 'invalid_number' : 'invalid_expiry', message },
  ]);
}

function cardOf(row: CardRow, panLength: number): StoredCard {
  return {
    id: row.id,
    brand: row.brand as CardBrand,
    bin: row.bin,
    last4: row.last4,
    masked: maskPan(row.bin, row.last4, panLength),
    expMonth: Number(row.exp_month),
    expYear: Number(row.exp_year),
    fingerprint: row.fingerprint,
  };
}

export class CardVault {
  constructor(private readonly keys: VaultKeys) {}

  /** HMAC-SHA256 of the PAN (digits only) under the fingerprint sub-key, hex. */
  fingerprint(pan: string): string {
    return this.keys.fingerprintPan(normalizeCardNumber(pan) ?? pan);
  }

  /** Stores a card, or returns the one already stored for this PAN and expiry. */
  async store(q: Queryable, input: CardInput): Promise<StoredCard> {
    const pan = validCardNumber(input.number);
    if (!pan) throw invalid('number', 'The card number is not valid.');
    const expMonth = input.expMonth;
    const expYear = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
    if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12) {
      throw invalid('expiry', 'The expiration month must be from 1 to 12.');
    }
    if (!expiryInRange(expMonth, expYear)) {
      throw invalid('expiry', 'The expiration year is not valid.');
    }
    const fingerprint = this.keys.fingerprintPan(pan);
    const id = this.keys.cardId(fingerprint, expMonth, expYear);
    const { bin, last4 } = panParts(pan);
    // One statement: the row as stored, whether this call stored it or an earlier one did (the
    // no-op update makes `returning` answer in both cases). The PAN is in hand: nothing is decrypted.
    const { rows } = await q.query<CardRow>(
      `insert into cards (id, pan_enc, key_id, fingerprint, brand, bin, last4, exp_month, exp_year)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       on conflict (id) do update set fingerprint = cards.fingerprint
       returning ${COLUMNS}`,
      [
        id,
        this.keys.encryptPan(pan, id),
        this.keys.keyId,
        fingerprint,
        cardBrand(pan),
        bin,
        last4,
        expMonth,
        expYear,
      ],
    );
    return cardOf(rows[0]!, pan.length);
  }

  /** A stored card and its PAN, decrypted once (a payment with a saved card); null when unknown. */
  async getWithPan(q: Queryable, id: string): Promise<{ card: StoredCard; pan: string } | null> {
    const row = await this.#row(q, id);
    if (!row) return null;
    const pan = this.keys.decryptPan(row.pan_enc, row.id);
    return { card: cardOf(row, pan.length), pan };
  }

  /** The card's details (never its PAN), or null. Decrypts the PAN to learn its length for `masked`. */
  async get(q: Queryable, id: string): Promise<StoredCard | null> {
    const row = await this.#row(q, id);
    if (!row) return null;
    return cardOf(row, this.keys.decryptPan(row.pan_enc, row.id).length);
  }

  /** The mask of a card read in a joined row (no second round trip); decrypts only to learn the length. */
  maskedOf(row: { id: string; pan_enc: string; bin: string; last4: string }): string {
    return maskPan(row.bin, row.last4, this.keys.decryptPan(row.pan_enc, row.id).length);
  }

  /** The PAN, for the processor call only: never log it, store it elsewhere or return it to a caller. */
  async reveal(q: Queryable, id: string): Promise<string> {
    const row = await this.#row(q, id);
    if (!row) throw new PayframeError('not_found', 'The stored card was not found.');
    return this.keys.decryptPan(row.pan_enc, row.id);
  }

  async #row(q: Queryable, id: string): Promise<CardRow | null> {
    const { rows } = await q.query<CardRow>(`select ${COLUMNS} from cards where id = $1`, [id]);
    return rows[0] ?? null;
  }
}
