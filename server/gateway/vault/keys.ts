/**
 * The vault's key (DESIGN.md §5; security-requirements.md PCI-351-1, PCI-3511-1, PCI-332-1).
 *
 * One 32-byte master key, from CARD_ENCRYPTION_KEY or generated on first start into
 * DATA_DIR/card-encryption.key (mode 0600). It is never used directly: HKDF-SHA256 derives one
 * sub-key per purpose, so the PAN key, the fingerprint key and the key for other secrets are
 * independent (a CVV held before authorisation would never share the PAN key, PCI-332-1).
 *
 * The key id (first 8 hex digits of SHA-256 of the master key) is written into every ciphertext and
 * into `cards.key_id`: decryption picks the key the ciphertext names among the current key and
 * CARD_ENCRYPTION_KEYS_OLD, and rotation (rotation.ts) finds what an old key encrypted. The lookup
 * keys (fingerprints, card ids) do not follow the encryption key: see IndexKeys.
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

/** The id written into ciphertexts: the first 8 hex digits of SHA-256 of the master key. */
export function keyIdOf(master: Buffer): string {
  return crypto.createHash('sha256').update(master).digest('hex').slice(0, 8);
}

/**
 * The keys of the vault's lookups: card fingerprints (stored in cards, payment profiles, 3-D Secure
 * challenges) and card ids (tokens merchants hold). They cannot change with the encryption key
 * without re-keying all of those, so they are kept apart: derived once from the key in use when
 * they were first needed, then stored encrypted in `vault_index_keys` (see `loadVaultKeys`).
 */
export interface IndexKeys {
  fingerprint: Buffer;
  cardId: Buffer;
}

interface EncryptionKeys {
  master: Buffer;
  pan: Buffer;
  secret: Buffer;
}

/** A `v1.<keyId>.` ciphertext's key id, or null when it is not one. */
export function keyIdOfBlob(blob: string): string | null {
  const m = /^v1\.([0-9a-f]{8})\./.exec(blob);
  return m ? m[1]! : null;
}

export class VaultKeys implements SecretBox {
  /** The current key's id: everything is encrypted under it. */
  readonly keyId: string;
  /** Every configured key by id, the current one first; the others only decrypt. */
  readonly #keys = new Map<string, EncryptionKeys>();
  readonly #fingerprint: Buffer;
  readonly #cardId: Buffer;

  /**
   * `master` encrypts; `old` keys (CARD_ENCRYPTION_KEYS_OLD) only decrypt. `index`: the lookup keys
   * (see IndexKeys); without it they are derived from `master`, as before rotation existed.
   */
  constructor(master: Buffer, options: { old?: readonly Buffer[]; index?: IndexKeys } = {}) {
    for (const key of [master, ...(options.old ?? [])]) {
      if (key.length !== KEY_BYTES) throw new VaultKeyError('The card encryption key must be 32 bytes.');
      const id = keyIdOf(key);
      const known = this.#keys.get(id);
      if (known && !known.master.equals(key)) {
        throw new VaultKeyError(
          `Two configured card encryption keys share the id ${id}; generate another key.`,
        );
      }
      if (!known) this.#keys.set(id, { master: key, pan: subKey(key, 'pan'), secret: subKey(key, 'secret') });
    }
    this.keyId = keyIdOf(master);
    const index = options.index ?? VaultKeys.deriveIndexKeys(master);
    this.#fingerprint = index.fingerprint;
    this.#cardId = index.cardId;
  }

  /** The configured key, else the key file in DATA_DIR (created on first start); plus the old keys. */
  static fromConfig(
    config: Pick<Config, 'cardEncryptionKey' | 'dataDir'> & Partial<Pick<Config, 'cardEncryptionKeysOld'>>,
  ): VaultKeys {
    const master = config.cardEncryptionKey
      ? parseKey(config.cardEncryptionKey, 'CARD_ENCRYPTION_KEY')
      : loadOrCreateKeyFile(config.dataDir);
    const old = (config.cardEncryptionKeysOld ?? []).map((k, i) =>
      parseKey(k, `CARD_ENCRYPTION_KEYS_OLD (key ${i + 1})`),
    );
    return new VaultKeys(master, { old });
  }

  /** The lookup keys a master key gives (what every deployment used before they were stored). */
  static deriveIndexKeys(master: Buffer): IndexKeys {
    return { fingerprint: subKey(master, 'fingerprint'), cardId: subKey(master, 'card-id') };
  }

  /** The ids of every configured key, the current one first. */
  get keyIds(): string[] {
    return [...this.#keys.keys()];
  }

  /** The master key with this id, if configured (to derive the lookup keys it gave). */
  masterOf(keyId: string): Buffer | undefined {
    return this.#keys.get(keyId)?.master;
  }

  /** These keys with other lookup keys. */
  withIndex(index: IndexKeys): VaultKeys {
    const [current, ...old] = [...this.#keys.values()].map((k) => k.master);
    return new VaultKeys(current!, { old, index });
  }

  /** The lookup keys, encrypted under the current key (for `vault_index_keys`). */
  sealIndexKeys(index: IndexKeys = { fingerprint: this.#fingerprint, cardId: this.#cardId }): string {
    const text = `${index.fingerprint.toString('hex')}:${index.cardId.toString('hex')}`;
    return seal(this.#current().secret, this.keyId, Buffer.from(text, 'ascii'), 'index-keys');
  }

  openIndexKeys(blob: string): IndexKeys {
    const [fp, id] = this.#open('secret', blob, 'index-keys').toString('ascii').split(':');
    const fingerprint = Buffer.from(fp ?? '', 'hex');
    const cardId = Buffer.from(id ?? '', 'hex');
    if (fingerprint.length !== KEY_BYTES || cardId.length !== KEY_BYTES) {
      throw new VaultDecryptError('The stored lookup keys are malformed.');
    }
    return { fingerprint, cardId };
  }

  /** Encrypts a secret that must be recoverable (a merchant's TransactionKey, a reader key). */
  encryptSecret(text: string): string {
    return seal(this.#current().secret, this.keyId, Buffer.from(text, 'utf8'), 'secret');
  }

  decryptSecret(blob: string): string {
    return this.#open('secret', blob, 'secret').toString('utf8');
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
    return seal(this.#current().pan, this.keyId, Buffer.from(pan, 'ascii'), `pan:${context}`);
  }

  decryptPan(blob: string, context: string): string {
    return this.#open('pan', blob, `pan:${context}`).toString('ascii');
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

  #current(): EncryptionKeys {
    return this.#keys.get(this.keyId)!;
  }

  /** Decrypts under whichever configured key the ciphertext names. */
  #open(purpose: 'pan' | 'secret', blob: string, context: string): Buffer {
    const keyId = keyIdOfBlob(blob);
    const keys = keyId === null ? undefined : this.#keys.get(keyId);
    if (keyId !== null && !keys) {
      throw new VaultDecryptError(
        `The value was encrypted under key ${keyId}, which is not configured (the current key is ${this.keyId}; ` +
          'earlier keys go in CARD_ENCRYPTION_KEYS_OLD).',
      );
    }
    return open(keys?.[purpose] ?? Buffer.alloc(KEY_BYTES), blob, context);
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

function open(key: Buffer, blob: string, context: string): Buffer {
  const parts = blob.split('.');
  if (parts.length !== 5 || parts[0] !== 'v1')
    throw new VaultDecryptError('The encrypted value is malformed.');
  const [, blobKeyId, ivText, tagText, ctText] = parts as [string, string, string, string, string];
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
