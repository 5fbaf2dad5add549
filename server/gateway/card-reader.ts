/**
 * Payframe's SANDBOX card-reader scheme (GetCardDetailsFromEncryptedData; DESIGN.md "What the spec
 * leaves open"; merchant documentation in docs/test-cards.md "Card-reader data").
 *
 * A reader encrypts what it read from the stripe, as magnetic-stripe tracks:
 *   track 2, always:            `;<PAN>=<YYMM><service code 101>?`
 *   track 1 before it, if named: `%B<PAN>^<NAME>^<YYMM>101?`
 * with AES-256-GCM under the merchant's 32-byte reader key (64 hex digits), a random 12-byte IV and
 * no associated data, and sends base64(iv ‖ tag ‖ ciphertext). Real readers use DUKPT/TDES or
 * vendor schemes; this one is deliberately simple to implement in any language.
 *
 * Errors never contain the data or the number.
 */
import crypto from 'node:crypto';
import { validCardNumber } from '../../shared/card/card-number.ts';
import { expiryInRange } from '../../shared/card/expiry.ts';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const SERVICE_CODE = '101';

export interface ReaderCard {
  pan: string;
  expMonth: number;
  /** Four digits. */
  expYear: number;
  name?: string;
}

/** The reader data or the reader key cannot be used; the message is safe to show a merchant. */
export class ReaderDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReaderDataError';
  }
}

function readerKey(hex: string): Buffer {
  const t = hex.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(t))
    throw new ReaderDataError('The reader key must be 64 hex digits (32 bytes).');
  return Buffer.from(t, 'hex');
}

function checkCard(card: ReaderCard): void {
  // Digits only, as a track holds them: a number with separators is not what a reader read.
  if (validCardNumber(card.pan) !== card.pan) {
    throw new ReaderDataError('The card number read is not valid.');
  }
  if (!expiryInRange(card.expMonth, card.expYear)) {
    throw new ReaderDataError('The expiration date read is not valid.');
  }
}

/** The track text a reader would send for this card. */
export function readerTracks(card: ReaderCard): string {
  checkCard(card);
  const yymm = `${String(card.expYear % 100).padStart(2, '0')}${String(card.expMonth).padStart(2, '0')}`;
  const track2 = `;${card.pan}=${yymm}${SERVICE_CODE}?`;
  const name = card.name
    ?.toUpperCase()
    .replace(/[^A-Z0-9 ./'-]/g, '')
    .trim()
    .slice(0, 26);
  return name ? `%B${card.pan}^${name}^${yymm}${SERVICE_CODE}?${track2}` : track2;
}

/** What a sandbox reader sends: base64(iv ‖ tag ‖ AES-256-GCM(tracks)). `iv` is for worked examples. */
export function encryptReaderData(
  readerKeyHex: string,
  card: ReaderCard,
  options: { iv?: Buffer } = {},
): string {
  const tracks = readerTracks(card);
  const iv = options.iv ?? crypto.randomBytes(IV_BYTES);
  if (iv.length !== IV_BYTES) throw new ReaderDataError('The IV must be 12 bytes.');
  const cipher = crypto.createCipheriv('aes-256-gcm', readerKey(readerKeyHex), iv);
  const ciphertext = Buffer.concat([cipher.update(tracks, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

const TRACK1 = /%B(\d{12,19})\^([^^]*)\^(\d{2})(\d{2})\d*\?/;
const TRACK2 = /;(\d{12,19})=(\d{2})(\d{2})\d*\?/;

/** Decrypts and reads reader data; a wrong key, altered data or unreadable tracks throw ReaderDataError. */
export function decryptReaderData(readerKeyHex: string, blob: string): ReaderCard {
  const key = readerKey(readerKeyHex);
  const text = blob.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) throw new ReaderDataError('The card-reader data is not base64.');
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length <= IV_BYTES + TAG_BYTES) throw new ReaderDataError('The card-reader data is too short.');
  let tracks: string;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    tracks = Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new ReaderDataError(
      "The card-reader data could not be decrypted with this merchant's reader key (another key, or altered data).",
    );
  }
  const t1 = TRACK1.exec(tracks);
  const t2 = TRACK2.exec(tracks);
  const m = t2 ?? t1;
  if (!m) throw new ReaderDataError('The card-reader data holds no readable track.');
  if (t1 && t2 && t1[1] !== t2[1]) throw new ReaderDataError('The tracks of the card-reader data disagree.');
  const [yy, mm] = t2 ? [t2[2]!, t2[3]!] : [t1![3]!, t1![4]!];
  const name = t1?.[2]?.trim();
  const card: ReaderCard = {
    pan: m[1]!,
    expMonth: Number(mm),
    expYear: 2000 + Number(yy),
    ...(name ? { name } : {}),
  };
  checkCard(card);
  return card;
}
