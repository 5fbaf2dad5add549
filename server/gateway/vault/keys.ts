/**
 * The vault's key (DESIGN.md §5; security-requirements.md PCI-351-1, PCI-3511-1, PCI-332-1).
 *
 * One 32-byte master key, from CARD_ENCRYPTION_KEY or generated on first start into
 * DATA_DIR/card-encryption.key (mode 0600). It is never used directly: HKDF-SHA256 derives one
 * sub-key per purpose, so the PAN key, the fingerprint key and the key for other secrets are
 * independent (a CVV held before authorisation would never share the PAN key, PCI-332-1).
 *
 * The key id (first 8 hex digits of SHA-256 of the master key) is written into every ciphertext and
 * into `cards.key_id`, so a later rotation can find what an old key encrypted.
 *
 * Ciphertext format: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts), AES-256-GCM with a
 * random 12-byte IV; the `v1.<keyId>` header (and a caller's context) is authenticated as AAD.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { SecretBox } from '../secret-box.ts';

export const KEY_FILE_NAME = 'card-encryption.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HKDF_SALT = 'payframe-vault-v1';

/** The key cannot be read or made: a configuration problem, reported at start. */
export class VaultKeyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VaultKeyError';
  }
}

/** A ciphertext is malformed, under another key, or was altered. The message never holds data. */
export class VaultDecryptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VaultDecryptError';
  }
}

/** 32 bytes from 64 hex digits or base64 (standard or URL-safe); `source` names where it came from. */
export function parseKey(text: string, source: string): Buffer {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) {
    const bytes = Buffer.from(t, 'base64');
    if (bytes.length === KEY_BYTES) return bytes;
  }
  throw new VaultKeyError(
    `${source} does not hold a valid key: it must be 32 bytes, written as 64 hex digits or 44 base64 characters.`,
  );
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

/**
 * Reads DATA_DIR/card-encryption.key, or creates it: written to a temporary file (0600, fsynced),
 * then hard-linked into place, which fails if another instance got there first, so two instances
 * starting at once end up with the same key.
 */
export function loadOrCreateKeyFile(dataDir: string): Buffer {
  const file = path.join(dataDir, KEY_FILE_NAME);
  const existing = readKeyFile(file);
  if (existing) return existing;

  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = crypto.randomBytes(KEY_BYTES);
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.fchmodSync(fd, 0o600); // whatever the umask
    fs.writeSync(fd, `${key.toString('hex')}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    if (errno(err) !== 'EEXIST')
      throw new VaultKeyError(`Cannot create the key file ${file}.`, { cause: err });
    // Another instance created it meanwhile: use theirs.
    const theirs = readKeyFile(file);
    if (!theirs) throw new VaultKeyError(`The key file ${file} disappeared while it was being created.`);
    return theirs;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return key;
}

function readKeyFile(file: string): Buffer | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (errno(err) === 'ENOENT') return null;
    throw new VaultKeyError(`Cannot read the key file ${file}.`, { cause: err });
  }
  // Like ssh with a private key: a key file others can read is refused, not silently used.
  if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) {
    throw new VaultKeyError(`The key file ${file} is readable by other users; run: chmod 600 ${file}`);
  }
  return parseKey(text, `The key file ${file}`);
}

type Purpose = 'pan' | 'fingerprint' | 'card-id' | 'secret';

function subKey(master: Buffer, purpose: Purpose): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', master, HKDF_SALT, `payframe ${purpose} key`, KEY_BYTES));
}

export class VaultKeys implements SecretBox {
  readonly keyId: string;
  readonly #pan: Buffer;
  readonly #fingerprint: Buffer;
  readonly #cardId: Buffer;
  readonly #secret: Buffer;

  constructor(master: Buffer) {
    if (master.length !== KEY_BYTES) throw new VaultKeyError('The card encryption key must be 32 bytes.');
    this.keyId = crypto.createHash('sha256').update(master).digest('hex').slice(0, 8);
    this.#pan = subKey(master, 'pan');
    this.#fingerprint = subKey(master, 'fingerprint');
    this.#cardId = subKey(master, 'card-id');
    this.#secret = subKey(master, 'secret');
  }

  /** The configured key, else the key file in DATA_DIR (created on first start). */
  static fromConfig(config: Pick<Config, 'cardEncryptionKey' | 'dataDir'>): VaultKeys {
    const master = config.cardEncryptionKey
      ? parseKey(config.cardEncryptionKey, 'CARD_ENCRYPTION_KEY')
      : loadOrCreateKeyFile(config.dataDir);
    return new VaultKeys(master);
  }

  /** Encrypts a secret that must be recoverable (a merchant's TransactionKey, a reader key). */
  encryptSecret(text: string): string {
    return seal(this.#secret, this.keyId, Buffer.from(text, 'utf8'), 'secret');
  }

  decryptSecret(blob: string): string {
    return open(this.#secret, this.keyId, blob, 'secret').toString('utf8');
  }

  /** SecretBox, for the merchant store: the same as encryptSecret / decryptSecret. */
  encrypt(plaintext: string): string {
    return this.encryptSecret(plaintext);
  }

  decrypt(blob: string): string {
    return this.decryptSecret(blob);
  }

  /** Encrypts a PAN; `context` (the card id) is bound in, so a ciphertext cannot move to another row. */
  encryptPan(pan: string, context: string): string {
    return seal(this.#pan, this.keyId, Buffer.from(pan, 'ascii'), `pan:${context}`);
  }

  decryptPan(blob: string, context: string): string {
    return open(this.#pan, this.keyId, blob, `pan:${context}`).toString('ascii');
  }

  /** HMAC-SHA256 of the PAN under the fingerprint sub-key, hex (PCI-3511-1: keyed, never bare). */
  fingerprintPan(pan: string): string {
    return crypto.createHmac('sha256', this.#fingerprint).update(pan).digest('hex');
  }

  /**
   * The id of the card a PAN and expiry make: keyed, so it says nothing about the PAN; the same
   * for the same card, so concurrent stores of one card meet on the primary key.
   */
  cardId(fingerprint: string, expMonth: number, expYear: number): string {
    const mac = crypto.createHmac('sha256', this.#cardId).update(`${fingerprint}:${expMonth}:${expYear}`);
    return `card_${mac.digest('hex').slice(0, 24)}`;
  }
}

function seal(key: Buffer, keyId: string, plaintext: Buffer, context: string): string {
  const header = `v1.${keyId}`;
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`${header}.${context}`, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
  return `${header}.${parts.join('.')}`;
}

function open(key: Buffer, keyId: string, blob: string, context: string): Buffer {
  const parts = blob.split('.');
  if (parts.length !== 5 || parts[0] !== 'v1')
    throw new VaultDecryptError('The encrypted value is malformed.');
  const [, blobKeyId, ivText, tagText, ctText] = parts as [string, string, string, string, string];
  if (blobKeyId !== keyId) {
    throw new VaultDecryptError(
      `The value was encrypted under key ${blobKeyId}; the current key is ${keyId}.`,
    );
  }
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new VaultDecryptError('The encrypted value is malformed.');
  }
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(`v1.${blobKeyId}.${context}`, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(ctText, 'base64url')), decipher.final()]);
  } catch {
    throw new VaultDecryptError('The encrypted value failed its integrity check (altered, or another key).');
  }
}
