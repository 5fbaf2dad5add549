/**
 * GetCardInfo and GetCardDetailsFromEncryptedData (DESIGN.md "What the spec leaves open"): pure
 * logic; the operation handlers add authentication and find the merchant's reader key.
 *
 * Neither answer ever echoes a card number: GetCardInfo gives the brand only, the card details a
 * masked number (at most first six + last four, PCI-341-1).
 */
import { formatExpiryMMYY } from '../../shared/card/expiry.ts';
import type { ValueOf } from '../../shared/contract/values.ts';
import { PayframeError } from '../errors.ts';
import { decryptReaderData, ReaderDataError } from './card-reader.ts';
import { cardBrand, panParts, validateCard } from './vault/card-checks.ts';

export const INVALID_CARD_NUMBER = 'Invalid card number.';

/**
 * The brand of a valid card number (12–19 digits, spaces and dashes allowed, Luhn), from its BIN:
 * 'Visa', 'Mastercard', 'American Express', … or 'Unknown'. Otherwise ErrorMessage says why.
 * MerchantID is not needed to answer (the caller's credential is checked by the handler).
 */
export function getCardInfo(request: ValueOf<'CardInfoRequest'> | null | undefined): ValueOf<'CardInfo'> {
  const number = request?.CardNumber?.trim();
  if (!number) return { Type: null, ErrorMessage: 'A card number is required.' };
  const checked = validateCard({ number }, new Date());
  if (!checked.ok) return { Type: null, ErrorMessage: INVALID_CARD_NUMBER };
  return { Type: checked.brand, ErrorMessage: null };
}

/**
 * Reads sandbox card-reader data (card-reader.ts) under the merchant's reader key: masked number,
 * expiry as MMYY, brand. `deviceName` is free text the sandbox accepts and ignores. Unreadable data
 * is a `validation_failed` error (a soap:Client fault) whose message names the problem, never the data.
 */
export function cardDetailsFromEncryptedData(input: {
  encryptedData: string | null | undefined;
  deviceName?: string | null;
  readerKeyHex: string;
}): ValueOf<'CardDetail'> {
  const data = input.encryptedData?.trim();
  if (!data) throw unreadable('encryptedData is required.');
  let card: ReturnType<typeof decryptReaderData>;
  try {
    card = decryptReaderData(input.readerKeyHex, data);
  } catch (err) {
    if (err instanceof ReaderDataError) throw unreadable(err.message);
    throw err;
  }
  return {
    MaskedCardNumber: panParts(card.pan).masked,
    ExpirationDate: formatExpiryMMYY({ month: card.expMonth, year: card.expYear }),
    CardType: cardBrand(card.pan),
  };
}

function unreadable(message: string): PayframeError {
  return new PayframeError('validation_failed', message, [
    { field: 'encryptedData', code: 'unreadable', message },
  ]);
}
