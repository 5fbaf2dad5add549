import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { tempDir } from '../../../test/kit/databases.ts';
import {
  KEY_FILE_NAME,
  loadOrCreateKeyFile,
  parseKey,
  VaultDecryptError,
  VaultKeyError,
  VaultKeys,
} from './keys.ts';

const dirs: string[] = [];
function dataDir(): string {
  const dir = tempDir('payframe-keys-');
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('the key file', () => {
  it('is created on first start with mode 0600, then reused', () => {
    const dir = path.join(dataDir(), 'nested', 'data');
    const first = loadOrCreateKeyFile(dir);
    const file = path.join(dir, KEY_FILE_NAME);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first).toHaveLength(32);
    expect(loadOrCreateKeyFile(dir).equals(first)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual([KEY_FILE_NAME]); // no temporary file left behind
  });

  it('gives one key to processes starting at once', async () => {
    const dir = dataDir();
    const script = `import { loadOrCreateKeyFile } from ${JSON.stringify(new URL('./keys.ts', import.meta.url).href)};
      process.stdout.write(loadOrCreateKeyFile(${JSON.stringify(dir)}).toString('hex'));`;
    const run = () =>
      new Promise<string>((resolve, reject) => {
        execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], (err, stdout) =>
          err ? reject(err) : resolve(stdout),
        );
      });
    const keys = await Promise.all(Array.from({ length: 6 }, run));
    expect(new Set(keys).size).toBe(1);
    expect(loadOrCreateKeyFile(dir).toString('hex')).toBe(keys[0]);
  });

  it('refuses a file of the wrong length, without echoing it', () => {
    const dir = dataDir();
    fs.writeFileSync(path.join(dir, KEY_FILE_NAME), 'abcdef0123\n', { mode: 0o600 });
    expect(() => loadOrCreateKeyFile(dir)).toThrow(VaultKeyError);
    expect(() => loadOrCreateKeyFile(dir)).toThrow(/32 bytes/);
    expect(() => loadOrCreateKeyFile(dir)).not.toThrow(/abcdef0123/);
  });

  it('refuses a key file other users can read', () => {
    const dir = dataDir();
    const file = path.join(dir, KEY_FILE_NAME);
    fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'));
    fs.chmodSync(file, 0o644);
    expect(() => loadOrCreateKeyFile(dir)).toThrow(/chmod 600/);
  });
});

describe('CARD_ENCRYPTION_KEY', () => {
  const raw = crypto.randomBytes(32);

  it('is read as hex or base64', () => {
    expect(parseKey(raw.toString('hex'), 'x').equals(raw)).toBe(true);
    expect(parseKey(raw.toString('base64'), 'x').equals(raw)).toBe(true);
    expect(parseKey(raw.toString('base64url'), 'x').equals(raw)).toBe(true);
  });

  it('is rejected by the configuration when it is not 32 bytes', () => {
    expect(() => loadConfig({ CARD_ENCRYPTION_KEY: 'too-short' })).toThrow(ConfigError);
    expect(() => loadConfig({ CARD_ENCRYPTION_KEY: crypto.randomBytes(16).toString('hex') })).toThrow(
      /CARD_ENCRYPTION_KEY/,
    );
    expect(loadConfig({ CARD_ENCRYPTION_KEY: raw.toString('hex') }).cardEncryptionKey).toBe(
      raw.toString('hex'),
    );
  });

  it('wins over the key file, which is then not created', () => {
    const dir = dataDir();
    const keys = VaultKeys.fromConfig({ cardEncryptionKey: raw.toString('base64'), dataDir: dir });
    expect(keys.keyId).toBe(crypto.createHash('sha256').update(raw).digest('hex').slice(0, 8));
    expect(fs.existsSync(path.join(dir, KEY_FILE_NAME))).toBe(false);
  });

  it('without it, the key file is used and survives a restart', () => {
    const dir = dataDir();
    const a = VaultKeys.fromConfig({ cardEncryptionKey: undefined, dataDir: dir });
    const b = VaultKeys.fromConfig({ cardEncryptionKey: undefined, dataDir: dir });
    expect(b.keyId).toBe(a.keyId);
    expect(b.decryptSecret(a.encryptSecret('tk_live_secret'))).toBe('tk_live_secret');
  });
});

describe('secrets', () => {
  const keys = new VaultKeys(crypto.randomBytes(32));

  it('round-trip, name their key, and differ each time', () => {
    const a = keys.encryptSecret('merchant transaction key');
    const b = keys.encryptSecret('merchant transaction key');
    expect(a).not.toBe(b);
    expect(a.startsWith(`v1.${keys.keyId}.`)).toBe(true);
    expect(a.split('.')).toHaveLength(5);
    expect(keys.decryptSecret(a)).toBe('merchant transaction key');
    expect(keys.decrypt(keys.encrypt('via SecretBox'))).toBe('via SecretBox');
  });

  it('refuse altered ciphertexts, headers and other keys', () => {
    const blob = keys.encryptSecret('s3cret');
    const parts = blob.split('.');
    const ct = Buffer.from(parts[4]!, 'base64url');
    ct[0]! ^= 1;
    const altered = [...parts.slice(0, 4), ct.toString('base64url')].join('.');
    expect(() => keys.decryptSecret(altered)).toThrow(VaultDecryptError);
    expect(() => keys.decryptSecret('v1.nonsense')).toThrow(/malformed/);
    const other = new VaultKeys(crypto.randomBytes(32));
    expect(() => other.decryptSecret(blob)).toThrow(/encrypted under key/);
    // The same key id but a different key (a forged header) still fails the integrity check.
    const forged = blob.replace(`v1.${keys.keyId}.`, `v1.${other.keyId}.`);
    expect(() => other.decryptSecret(forged)).toThrow(/integrity/);
  });

  it('use a sub-key separate from the PAN key', () => {
    const pan = keys.encryptPan('4242424242424242', 'card_x');
    expect(() => keys.decryptSecret(pan)).toThrow(VaultDecryptError);
    expect(() => keys.decryptPan(pan, 'card_y')).toThrow(VaultDecryptError); // bound to its row
    expect(keys.decryptPan(pan, 'card_x')).toBe('4242424242424242');
  });
});
