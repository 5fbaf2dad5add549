import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { DatabaseLedger, MemoryLedger } from './ledger.ts';
import type { CardAuthorization } from './processor.ts';
import { ACH_TEST_ACCOUNTS, approvalCode, SimulatorProcessor, TEST_CARDS } from './simulator.ts';

const NOW = new Date('2026-05-15T12:00:00Z');
let seq = 0;
const ref = (label = 'r') => `${label}-${++seq}-${Math.random().toString(36).slice(2)}`;

function card(pan: string, extra: Partial<CardAuthorization> = {}): CardAuthorization {
  return {
    reference: ref(),
    pan,
    expMonth: 12,
    expYear: 2030,
    amountCents: 10_000n,
    cvv: '123',
    zip: '94107',
    ...extra,
  };
}

describe('simulator: test cards', () => {
  const sim = new SimulatorProcessor({ now: () => NOW });

  it.each([
    [TEST_CARDS.visa, '00', true],
    [TEST_CARDS.mastercard, '00', true],
    [TEST_CARDS.declined, '05', false],
    [TEST_CARDS.insufficientFunds, '51', false],
    [TEST_CARDS.expiredCard, '54', false],
    [TEST_CARDS.cvvMismatch, 'N7', false],
    ['6011111111111117', '00', true], // any other Luhn-valid card
    ['4242424242424241', '14', false], // not Luhn-valid
  ])('%s → %s', async (pan, code, approved) => {
    const r = await sim.authorizeCard(card(pan));
    expect(r).toMatchObject({ responseCode: code, approved });
    expect(r.approvedAmountCents).toBe(approved ? 10_000n : 0n);
    expect(r.approvalCode === undefined).toBe(!approved);
  });

  it('approves American Express with its 4-digit CVV, and sees a 3-digit one as a mismatch', async () => {
    expect(await sim.authorizeCard(card(TEST_CARDS.amex, { cvv: '1234' }))).toMatchObject({
      responseCode: '00',
      cvvResult: 'M',
    });
    expect(await sim.authorizeCard(card(TEST_CARDS.amex, { cvv: '123' }))).toMatchObject({
      responseCode: 'N7',
      cvvResult: 'N',
    });
  });

  it('reports CVV results: match, mismatch, not processed', async () => {
    expect((await sim.authorizeCard(card(TEST_CARDS.visa))).cvvResult).toBe('M');
    expect((await sim.authorizeCard(card(TEST_CARDS.cvvMismatch))).cvvResult).toBe('N');
    const noCvv = await sim.authorizeCard(card(TEST_CARDS.cvvMismatch, { cvv: undefined }));
    expect(noCvv).toMatchObject({ approved: true, cvvResult: 'P' });
  });

  it('approves half the amount, rounded down, on the partial-approval card', async () => {
    const r = await sim.authorizeCard(card(TEST_CARDS.partialApproval, { amountCents: 10_001n }));
    expect(r).toMatchObject({ approved: true, responseCode: '10', approvedAmountCents: 5_000n });
    const oneCent = await sim.authorizeCard(card(TEST_CARDS.partialApproval, { amountCents: 1n }));
    expect(oneCent).toMatchObject({ approved: false, responseCode: '51' });
  });

  it('derives AVS from the ZIP code', async () => {
    expect(await sim.authorizeCard(card(TEST_CARDS.visa, { zip: '00000' }))).toMatchObject({
      approved: true,
      avsCode: 'N',
    });
    expect((await sim.authorizeCard(card(TEST_CARDS.visa, { zip: undefined }))).avsCode).toBe('U');
    const y = await sim.authorizeCard(card(TEST_CARDS.visa, { zip: '10001' }));
    expect(y).toMatchObject({ avsCode: 'Y', avsMessage: expect.stringMatching(/match/) });
  });

  it('asks for 3-D Secure, then approves once the shopper is authenticated', async () => {
    const first = await sim.authorizeCard(card(TEST_CARDS.threeDSecure));
    expect(first).toMatchObject({ approved: false, responseCode: '65', challengeRequired: true });
    const failed = await sim.authorizeCard(
      card(TEST_CARDS.threeDSecure, { threeDS: { authenticated: false } }),
    );
    expect(failed.challengeRequired).toBe(true);
    const reference = ref('3ds');
    const retry = { reference, threeDS: { authenticated: true } };
    expect(await sim.authorizeCard(card(TEST_CARDS.threeDSecure, { reference }))).toMatchObject({
      challengeRequired: true,
    });
    expect(await sim.lookup(reference)).toBeNull(); // a challenge charges nothing
    expect(await sim.authorizeCard(card(TEST_CARDS.threeDSecure, retry))).toMatchObject({
      approved: true,
      responseCode: '00',
    });
  });

  it('declines expired cards, bad amounts and bad months', async () => {
    expect(
      (await sim.authorizeCard(card(TEST_CARDS.visa, { expMonth: 4, expYear: 2026 }))).responseCode,
    ).toBe('54');
    expect((await sim.authorizeCard(card(TEST_CARDS.visa, { expMonth: 13 }))).responseCode).toBe('54');
    expect((await sim.authorizeCard(card(TEST_CARDS.visa, { amountCents: 0n }))).responseCode).toBe('13');
    expect((await sim.authorizeCard(card(TEST_CARDS.visa, { amountCents: -5n }))).responseCode).toBe('13');
    expect((await sim.authorizeCard(card(TEST_CARDS.visa, { amountCents: 10n ** 12n }))).responseCode).toBe(
      '13',
    );
  });

  it('verifies a card with a zero amount; amount-based declines do not apply', async () => {
    const verify = (pan: string, amountCents = 0n) =>
      sim.authorizeCard(card(pan, { verifyOnly: true, amountCents }));
    expect(await verify(TEST_CARDS.visa)).toMatchObject({ approved: true, approvedAmountCents: 0n });
    expect(await verify(TEST_CARDS.insufficientFunds)).toMatchObject({ approved: true });
    expect(await verify(TEST_CARDS.partialApproval)).toMatchObject({ approved: true, responseCode: '00' });
    expect(await verify(TEST_CARDS.declined)).toMatchObject({ approved: false, responseCode: '05' });
    expect(await verify(TEST_CARDS.visa, 100n)).toMatchObject({ approved: false, responseCode: '13' });
  });

  it('gives 6-character approval codes derived from the reference', async () => {
    const reference = ref();
    const r = await sim.authorizeCard(card(TEST_CARDS.visa, { reference }));
    expect(r.approvalCode).toMatch(/^[0-9A-Z]{6}$/);
    expect(r.approvalCode).toBe(approvalCode(reference));
    // Another simulator (another instance) answers the same reference with the same code.
    const elsewhere = await new SimulatorProcessor({ now: () => NOW }).authorizeCard(
      card(TEST_CARDS.visa, { reference }),
    );
    expect(elsewhere).toEqual(r);
  });
});

describe('simulator: ACH', () => {
  const sim = new SimulatorProcessor({ now: () => NOW });
  const debit = (accountNumber: string, routingNumber = '011000015', amountCents = 2_500n) =>
    sim.debitAch({
      reference: ref('ach'),
      routingNumber,
      accountNumber,
      accountType: 'checking',
      amountCents,
    });

  it('approves the approved account and any other, returns R01 for insufficient funds', async () => {
    expect(await debit(ACH_TEST_ACCOUNTS.approved)).toMatchObject({ approved: true, responseCode: '00' });
    expect(await debit('987654321')).toMatchObject({ approved: true, approvedAmountCents: 2_500n });
    expect(await debit(ACH_TEST_ACCOUNTS.insufficientFunds)).toMatchObject({
      approved: false,
      responseCode: 'R01',
    });
  });

  it('refuses bad routing numbers, account numbers, account types and amounts', async () => {
    expect((await debit(ACH_TEST_ACCOUNTS.approved, '011000016')).responseCode).toBe('R28');
    expect((await debit('12')).responseCode).toBe('R04');
    expect((await debit(ACH_TEST_ACCOUNTS.approved, '011000015', 0n)).responseCode).toBe('13');
    const r = await sim.debitAch({
      reference: ref(),
      routingNumber: '011000015',
      accountNumber: ACH_TEST_ACCOUNTS.approved,
      accountType: 'brokerage',
      amountCents: 100n,
    });
    expect(r.responseCode).toBe('12');
  });
});

describe('simulator: capture, refund, void', () => {
  const sim = new SimulatorProcessor({ now: () => NOW });

  it('captures, refunds and voids up to the approved amount', async () => {
    const auth = card(TEST_CARDS.partialApproval, { amountCents: 10_000n });
    expect((await sim.authorizeCard(auth)).approvedAmountCents).toBe(5_000n);
    const follow = (amountCents: bigint) => ({
      reference: ref(),
      originalReference: auth.reference,
      amountCents,
    });
    expect(await sim.capture(follow(5_000n))).toMatchObject({ approved: true, approvedAmountCents: 5_000n });
    expect(await sim.capture(follow(5_001n))).toMatchObject({ approved: false, responseCode: '13' });
    expect(await sim.refund(follow(1_000n))).toMatchObject({ approved: true, approvedAmountCents: 1_000n });
    const whole = await sim.voidAuthorization({ reference: ref(), originalReference: auth.reference });
    expect(whole).toMatchObject({ approved: true, approvedAmountCents: 5_000n });
  });

  it('refuses to act on a missing or declined original', async () => {
    const declined = card(TEST_CARDS.declined);
    await sim.authorizeCard(declined);
    const missing = { reference: ref(), originalReference: 'never-sent', amountCents: 100n };
    expect(await sim.capture(missing)).toMatchObject({ approved: false, responseCode: '25' });
    expect(await sim.lookup(missing.reference)).toBeNull();
    const onDeclined = { reference: ref(), originalReference: declined.reference, amountCents: 100n };
    expect(await sim.refund(onDeclined)).toMatchObject({ approved: false, responseCode: '12' });
  });
});

describe('simulator: references (IDEM-9, REL-3)', () => {
  it('answers a repeated reference from its ledger, and refuses one reused for another request', async () => {
    const sim = new SimulatorProcessor({ ledger: new MemoryLedger(), now: () => NOW });
    const req = card(TEST_CARDS.visa);
    const first = await sim.authorizeCard(req);
    expect(await sim.authorizeCard({ ...req })).toEqual(first);
    expect(await sim.lookup(req.reference)).toEqual(first);
    expect(await sim.lookup('unknown')).toBeNull();
    await expect(sim.authorizeCard({ ...req, amountCents: 1n })).rejects.toThrow(/already used/);
    await expect(
      sim.capture({ reference: req.reference, originalReference: 'x', amountCents: 1n }),
    ).rejects.toThrow(/already used/);
  });
});

for (const target of databaseTargets()) {
  describe(`simulator ledger on ${target.name}`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await target.open();
    });
    afterAll(async () => {
      await db?.close();
    });

    it('charges one reference once under 20 concurrent calls from two instances', async () => {
      const instances = [1, 2].map(
        () => new SimulatorProcessor({ ledger: new DatabaseLedger(db), now: () => NOW }),
      );
      const req = card(TEST_CARDS.partialApproval, { amountCents: 999n });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => instances[i % 2]!.authorizeCard({ ...req })),
      );
      for (const r of results) expect(r).toEqual(results[0]);
      expect(results[0]).toMatchObject({ approved: true, responseCode: '10', approvedAmountCents: 499n });
      const { rows } = await db.query<{ n: string }>(
        'select count(*) as n from processor_ledger where reference = $1',
        [req.reference],
      );
      expect(Number(rows[0]!.n)).toBe(1);
      expect(await instances[1]!.lookup(req.reference)).toEqual(results[0]);
    });

    it('lets an instance capture what another authorised, and keeps no PAN or CVV', async () => {
      const [a, b] = [1, 2].map(
        () => new SimulatorProcessor({ ledger: new DatabaseLedger(db), now: () => NOW }),
      );
      const auth = card(TEST_CARDS.mastercard, { cvv: '987' });
      await a!.authorizeCard(auth);
      const capture = await b!.capture({
        reference: ref(),
        originalReference: auth.reference,
        amountCents: 10_000n,
      });
      expect(capture.approved).toBe(true);
      const { rows } = await db.query<{ result: Record<string, unknown> }>('select * from processor_ledger');
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(TEST_CARDS.mastercard);
      expect(dump).not.toContain(TEST_CARDS.mastercard.slice(0, 6));
      const fields = new Set(rows.flatMap((r) => Object.keys(r.result)));
      expect([...fields].filter((f) => /cvv|pan|card/i.test(f))).toEqual(['cvvResult']);
      for (const r of rows) expect(Object.values(r.result)).not.toContain('987');
    });
  });
}
