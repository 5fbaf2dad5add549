import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../db/database.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { type CreatedChallenge, type ThreeDsResult, ThreeDsService } from './three-ds-service.ts';

async function insertMerchant(q: Queryable, name = 'Test Shop'): Promise<string> {
  const { rows } = await q.query<{ id: string }>(
    `insert into merchants (public_code, name, business_name, transaction_key_enc, reader_key_enc)
     values ($1, $2, $2, 'x', 'x') returning id`,
    [crypto.randomBytes(6).toString('hex'), name],
  );
  return rows[0]!.id;
}

for (const target of databaseTargets()) {
  describe(`3-D Secure sandbox ACS on ${target.name}`, () => {
    let db: Database;
    let merchantId: string;
    let clock = new Date('2030-01-01T12:00:00Z');
    const secret = crypto.randomBytes(32);
    const service = new ThreeDsService({ secret, now: () => clock });
    const card = 'fp_4000000000003220';

    beforeAll(async () => {
      db = await target.open();
      merchantId = await insertMerchant(db);
    });
    afterAll(async () => {
      await db.close();
    });

    const expected = () => ({
      merchantId,
      cardFingerprint: card,
      amountCents: 1234n,
      checkoutSessionId: null,
    });

    async function authenticated(): Promise<{ challenge: CreatedChallenge; result: ThreeDsResult }> {
      const challenge = await service.createChallenge(db, expected());
      const done = await service.completeChallenge(db, challenge.id, 'authenticate');
      if (!done.ok || !done.challenge.result) throw new Error('not authenticated');
      return { challenge, result: done.challenge.result };
    }

    it('creates a pending challenge with 3DS-shaped ids', async () => {
      const c = await service.createChallenge(db, { ...expected(), ttlMinutes: 5 });
      expect(c.id).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(Buffer.from(c.xid, 'base64')).toHaveLength(20);
      expect(c.dsTransactionId).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(c.url).toBe(`/3ds/challenge/${c.id}`);
      expect(c.expiresAt.getTime() - clock.getTime()).toBe(5 * 60_000);
      const status = await service.challengeStatus(db, c.id);
      expect(status).toMatchObject({ status: 'pending', merchantName: 'Test Shop', amount: '12.34' });
      expect(status?.result).toBeUndefined();
      expect(await service.challengeStatus(db, 'nope')).toBeNull();
    });

    it('authenticates, verifies once, then answers already_used', async () => {
      const { challenge, result } = await authenticated();
      expect(result).toMatchObject({
        eci: '05',
        xid: challenge.xid,
        dsTransactionId: challenge.dsTransactionId,
      });
      expect(Buffer.from(result.cavv, 'base64')).toHaveLength(20);
      expect(await service.verifyAuthentication(db, result, expected())).toEqual({ ok: true });
      expect(await service.verifyAuthentication(db, result, expected())).toEqual({
        ok: false,
        reason: 'already_used',
      });
      expect((await service.challengeStatus(db, challenge.id))?.status).toBe('used');
    });

    it('completing twice returns the same result, never a second CAVV', async () => {
      const { challenge, result } = await authenticated();
      const again = await service.completeChallenge(db, challenge.id, 'authenticate');
      const flipped = await service.completeChallenge(db, challenge.id, 'fail');
      expect(again).toMatchObject({ ok: true, challenge: { status: 'authenticated', result } });
      expect(flipped).toMatchObject({ ok: true, challenge: { status: 'authenticated', result } });
      expect(await service.completeChallenge(db, 'AAAAAAAAAAAAAAAAAAAAAAAA', 'fail')).toEqual({
        ok: false,
        reason: 'unknown',
      });
    });

    it('refuses another merchant, card or amount as a mismatch', async () => {
      const { result } = await authenticated();
      const other = await insertMerchant(db, 'Other Shop');
      for (const wrong of [
        { ...expected(), amountCents: 1235n },
        { ...expected(), merchantId: other },
        { ...expected(), cardFingerprint: 'fp_other' },
      ]) {
        expect(await service.verifyAuthentication(db, result, wrong)).toEqual({
          ok: false,
          reason: 'mismatch',
        });
      }
      // None of those consumed it.
      expect(await service.verifyAuthentication(db, result, expected())).toEqual({ ok: true });
    });

    it('refuses a forged CAVV or a wrong ECI as a mismatch', async () => {
      const { result } = await authenticated();
      const forged = crypto.randomBytes(20).toString('base64');
      const otherKey = new ThreeDsService({ secret: crypto.randomBytes(32), now: () => clock });
      const c2 = await otherKey.createChallenge(db, expected());
      const done = await otherKey.completeChallenge(db, c2.id, 'authenticate');
      const foreign = done.ok ? done.challenge.result! : result;
      for (const values of [
        { ...result, cavv: forged },
        { ...result, eci: '07' },
      ]) {
        expect(await service.verifyAuthentication(db, values, expected())).toEqual({
          ok: false,
          reason: 'mismatch',
        });
      }
      // A CAVV made under another key does not verify under this one.
      expect(await service.verifyAuthentication(db, foreign, expected())).toEqual({
        ok: false,
        reason: 'mismatch',
      });
      expect(await service.verifyAuthentication(db, { ...result, eci: '5' }, expected())).toEqual({
        ok: true,
      });
    });

    it('answers unknown for values it never issued', async () => {
      const { result } = await authenticated();
      expect(
        await service.verifyAuthentication(
          db,
          { ...result, xid: crypto.randomBytes(20).toString('base64') },
          expected(),
        ),
      ).toEqual({ ok: false, reason: 'unknown' });
      expect(
        await service.verifyAuthentication(
          db,
          { ...result, dsTransactionId: crypto.randomUUID() },
          expected(),
        ),
      ).toEqual({ ok: false, reason: 'unknown' });
    });

    it('expires: an unanswered challenge cannot be completed, an unused result cannot be used', async () => {
      const start = clock;
      try {
        const pending = await service.createChallenge(db, expected());
        const { result } = await authenticated();
        clock = new Date(start.getTime() + 10 * 60_000 + 1);
        expect((await service.challengeStatus(db, pending.id))?.status).toBe('expired');
        expect(await service.completeChallenge(db, pending.id, 'authenticate')).toEqual({
          ok: false,
          reason: 'expired',
        });
        expect(await service.verifyAuthentication(db, result, expected())).toEqual({
          ok: false,
          reason: 'expired',
        });
      } finally {
        clock = start;
      }
    });

    it('a failed challenge has no CAVV and never verifies', async () => {
      const c = await service.createChallenge(db, expected());
      const done = await service.completeChallenge(db, c.id, 'fail');
      expect(done).toMatchObject({ ok: true, challenge: { status: 'failed' } });
      expect(done.ok && done.challenge.result).toBeFalsy();
      expect(await service.completeChallenge(db, c.id, 'authenticate')).toMatchObject({
        ok: true,
        challenge: { status: 'failed' },
      });
      const values = {
        cavv: crypto.randomBytes(20).toString('base64'),
        eci: '05',
        xid: c.xid,
        dsTransactionId: c.dsTransactionId,
      };
      expect(await service.verifyAuthentication(db, values, expected())).toEqual({
        ok: false,
        reason: 'not_authenticated',
      });
      const pending = await service.createChallenge(db, expected());
      expect(
        await service.verifyAuthentication(
          db,
          { ...values, xid: pending.xid, dsTransactionId: pending.dsTransactionId },
          expected(),
        ),
      ).toEqual({ ok: false, reason: 'not_authenticated' });
    });

    it('accepts a result exactly once when 10 verifications race', async () => {
      const { result } = await authenticated();
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => service.verifyAuthentication(db, result, expected())),
      );
      expect(answers.filter((a) => a.ok)).toHaveLength(1);
      expect(answers.filter((a) => !a.ok && a.reason === 'already_used')).toHaveLength(9);
    });

    it('accepts a result exactly once when verifications race inside transactions', async () => {
      const { result } = await authenticated();
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          db.transaction((tx) => service.verifyAuthentication(tx, result, expected())),
        ),
      );
      expect(answers.filter((a) => a.ok)).toHaveLength(1);
    });

    it('a rolled-back verification leaves the result unused', async () => {
      const { result } = await authenticated();
      await expect(
        db.transaction(async (tx) => {
          expect(await service.verifyAuthentication(tx, result, expected())).toEqual({ ok: true });
          throw new Error('processor failed');
        }),
      ).rejects.toThrow('processor failed');
      expect(await service.verifyAuthentication(db, result, expected())).toEqual({ ok: true });
    });

    it('checks its inputs and its key', async () => {
      expect(() => new ThreeDsService({ secret: Buffer.alloc(8) })).toThrow(TypeError);
      await expect(service.createChallenge(db, { ...expected(), merchantId: '12a' })).rejects.toThrow(
        TypeError,
      );
      await expect(service.createChallenge(db, { ...expected(), amountCents: 0n })).rejects.toThrow(
        RangeError,
      );
    });
  });
}
