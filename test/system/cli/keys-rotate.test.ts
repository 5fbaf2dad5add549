/**
 * `payframe keys rotate` end to end, as an operator runs it on the embedded database: a merchant
 * made under key A, rotated to B with A as the old key, counts printed (--json and for a person),
 * nothing left the second time, and a clear error without a key. The rotation itself, through the
 * real app on every database: server/gateway/vault/rotation.test.ts.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../server/gateway/vault/keys.ts';
import { tempDir } from '../../kit/databases.ts';

const A = crypto.randomBytes(32);
const B = crypto.randomBytes(32);
const hex = (k: Buffer) => k.toString('hex');

const BIN = fileURLToPath(new URL('../../../bin/payframe.js', import.meta.url));

function payframe(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent', CARD_ENCRYPTION_KEYS_OLD: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('payframe keys rotate', () => {
  it('re-encrypts under the new key, prints counts (--json), and finds nothing the second time', async () => {
    const DATA_DIR = tempDir();
    const created = await payframe(['merchant', 'create', '--name', 'Key Shop', '--json'], {
      DATA_DIR,
      CARD_ENCRYPTION_KEY: hex(A),
    });
    expect(created.code).toBe(0);

    const rotated = await payframe(['keys', 'rotate', '--json'], {
      DATA_DIR,
      CARD_ENCRYPTION_KEY: hex(B),
      CARD_ENCRYPTION_KEYS_OLD: hex(A),
    });
    expect(rotated.code).toBe(0);
    expect(JSON.parse(rotated.stdout)).toEqual({
      keyId: keyIdOf(B),
      cards: { rotated: 0, remaining: 0 },
      merchants: { rotated: 1, remaining: 0 },
      indexKeys: { rotated: 1, remaining: 0 },
    });

    const human = await payframe(['keys', 'rotate'], { DATA_DIR, CARD_ENCRYPTION_KEY: hex(B) });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Merchants re-encrypted: 0 (left: 0)');
    expect(human.stdout).toContain('CARD_ENCRYPTION_KEYS_OLD can be emptied');
    expect(human.stdout + human.stderr).not.toContain(hex(B));

    const noKey = await payframe(['keys', 'rotate', '--json'], { DATA_DIR, CARD_ENCRYPTION_KEY: '' });
    expect(noKey.code).toBe(1);
    expect(JSON.parse(noKey.stdout).error.code).toBe('invalid_config');
  }, 60_000);
});
