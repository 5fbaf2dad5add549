/**
 * Rotating the card encryption key, through the real app on every database target: cards stored
 * under key A; the servers switch to key B with A as an old key; `rotateVaultKeys` re-encrypts
 * while payments go on; then A is dropped and every card, merchant key and stored token still works,
 * with the same card ids and fingerprints. `payframe keys rotate` end to end:
 * test/system/cli/keys-rotate.test.ts.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { buildTestApp, type TestApp } from '../../../test/kit/app.ts';
import { databaseTargets, tempDir } from '../../../test/kit/databases.ts';
import { TEST_CARDS } from '../processor/simulator.ts';
import { call, card, createMerchant, pay, type TestMerchant } from '../../../test/kit/gateway/gateway-kit.ts';
import { keyIdOf } from './keys.ts';
import { loadVaultKeys, rotateVaultKeys } from './rotation.ts';

const A = crypto.randomBytes(32);
const B = crypto.randomBytes(32);
const hex = (k: Buffer) => k.toString('hex');

describe.each(databaseTargets())('card encryption key rotation ($name)', (target) => {
  let db: Database;
  const apps: TestApp[] = [];
  const open = async (env: Record<string, string>) => {
    const t = await buildTestApp(db, { LOG_LEVEL: 'warn', ...env });
    apps.push(t);
    return t;
  };
  const tx = (t: TestApp, m: TestMerchant, fields: Record<string, unknown>) =>
    call(t.app, 'ProcessTransaction', pay(m, fields), m.as);
  const cardRows = async () =>
    (
      await db.query<{ id: string; key_id: string; fingerprint: string }>(
        'select id, key_id, fingerprint from cards order by id',
      )
    ).rows;

  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await db?.close();
  });

  it('A → B with A old → rotate → B alone: every card decrypts, tokens pay throughout', async () => {
    // Under key A: a merchant and two stored cards (tokens).
    const underA = await open({ CARD_ENCRYPTION_KEY: hex(A) });
    const m = await createMerchant(underA, db, 'Rotation Shop', false);
    const visa = await tx(underA, m, card(TEST_CARDS.visa, '10.00', { CreateToken: true }));
    const amex = await tx(underA, m, card(TEST_CARDS.amex, '11.00', { CreateToken: true, CVV2: '1234' }));
    expect(visa.ResponseCode).toBe('00');
    expect(visa.Token).toMatch(/^tok_/);
    const before = await cardRows();
    expect(before.map((r) => r.key_id)).toEqual([keyIdOf(A), keyIdOf(A)]);
    const visaFingerprint = underA.gateway.deps.vault.fingerprint(TEST_CARDS.visa);

    // B alone cannot start yet: the stored data is under A, and it says which key it needs.
    await expect(
      loadVaultKeys({ cardEncryptionKey: hex(B), cardEncryptionKeysOld: [], dataDir: tempDir() }, db),
    ).rejects.toThrow(new RegExp(`key ${keyIdOf(A)}, which is not configured`));

    // Key B current, A old: A's cards and merchant key still work; new cards are written under B.
    const both = await open({ CARD_ENCRYPTION_KEY: hex(B), CARD_ENCRYPTION_KEYS_OLD: hex(A) });
    expect((await tx(both, m, { SaveCardID: visa.Token, Amount: '1.00' })).ResponseCode).toBe('00');
    const mc = await tx(both, m, card(TEST_CARDS.mastercard, '12.00', { CreateToken: true }));
    expect(mc.ResponseCode).toBe('00');
    // The same card stored again under B is the same card (same id and fingerprint as under A).
    await tx(both, m, card(TEST_CARDS.visa, '1.50', { CreateToken: true }));
    const mixed = await cardRows();
    expect(mixed).toHaveLength(3);
    expect(mixed.filter((r) => r.key_id === keyIdOf(B))).toHaveLength(1);
    expect(both.gateway.deps.vault.fingerprint(TEST_CARDS.visa)).toBe(visaFingerprint);

    // Rotate while payments with the stored tokens go on.
    const [report, ...paid] = await Promise.all([
      rotateVaultKeys(db, both.gateway.keys, { batchSize: 1 }),
      ...[visa.Token, amex.Token, mc.Token, visa.Token].map((token) =>
        tx(both, m, { SaveCardID: token, Amount: '2.00' }),
      ),
    ]);
    expect(paid.map((r) => r.ResponseCode)).toEqual(['00', '00', '00', '00']);
    expect(report).toEqual({
      keyId: keyIdOf(B),
      cards: { rotated: 2, remaining: 0 },
      merchants: { rotated: 1, remaining: 0 },
      indexKeys: { rotated: 1, remaining: 0 },
    });
    // Running it again finds nothing to do.
    const again = await rotateVaultKeys(db, both.gateway.keys);
    expect([again.cards.rotated, again.merchants.rotated, again.indexKeys.rotated]).toEqual([0, 0, 0]);

    // A dropped: every card decrypts, ids and fingerprints are unchanged, the tokens and the
    // merchant's key (HTTP Basic) still work.
    const onlyB = await open({ CARD_ENCRYPTION_KEY: hex(B) });
    const after = await cardRows();
    expect(after.map((r) => [r.id, r.fingerprint])).toEqual(mixed.map((r) => [r.id, r.fingerprint]));
    expect(after.every((r) => r.key_id === keyIdOf(B))).toBe(true);
    const panEnc = await db.query<{ pan_enc: string }>('select pan_enc from cards');
    expect(panEnc.rows.every((r) => r.pan_enc.startsWith(`v1.${keyIdOf(B)}.`))).toBe(true);
    const revealed = await Promise.all(after.map((r) => onlyB.gateway.deps.vault.reveal(db, r.id)));
    expect(revealed.sort()).toEqual([TEST_CARDS.amex, TEST_CARDS.visa, TEST_CARDS.mastercard].sort());
    for (const token of [visa.Token, amex.Token, mc.Token]) {
      expect((await tx(onlyB, m, { SaveCardID: token, Amount: '3.00' })).ResponseCode).toBe('00');
    }
    expect(onlyB.gateway.deps.vault.fingerprint(TEST_CARDS.visa)).toBe(visaFingerprint);
    expect(await onlyB.gateway.deps.merchants.transactionKey(db, m.id)).toBe(m.key);
  });
});
