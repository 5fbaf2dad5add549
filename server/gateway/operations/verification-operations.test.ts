/**
 * SendVerificationCode (docs/gateway-wallet-codes.md "One-time codes"; security-requirements.md
 * OTP-1, OTP-7, OTP-8): codes only for contacts that hold a wallet card, only to the checkout
 * server's credential; the same answer shape and the same cost for known and unknown contacts.
 * Through the real SOAP endpoint, on every database target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { TEST_CARDS } from '../processor/simulator.ts';
import { call, futureExpiry, rawCall } from '../../../test/kit/gateway/gateway-kit.ts';
import {
  openWalletWorld,
  SERVICE,
  saveCard,
  type WalletWorld,
} from '../../../test/kit/gateway/wallet-world.ts';
import { oneTimeCode } from './verification-operations.ts';

const CODE = /^\d{6}$/;

/** The element names of a SOAP answer, in order: its shape, whatever the values. */
const shapeOf = (body: string) => [...body.matchAll(/<([A-Za-z:]+)[\s/>]/g)].map((m) => m[1]).join(' ');

describe('oneTimeCode', () => {
  it('is six digits, uniform at every position (chi-square over 100,000 codes)', () => {
    const counts = Array.from({ length: 6 }, () => new Array<number>(10).fill(0));
    for (let i = 0; i < 100_000; i++) {
      const code = oneTimeCode();
      if (!CODE.test(code)) expect(code).toMatch(CODE);
      for (let p = 0; p < 6; p++) counts[p]![code.charCodeAt(p) - 48]! += 1;
    }
    for (const position of counts) {
      const chi2 = position.reduce((sum, observed) => sum + (observed - 10_000) ** 2 / 10_000, 0);
      // 9 degrees of freedom, p = 1.3e-9 per position: a fair generator fails about once in 10^8 runs
      // (at p = 0.0001 it failed a CI run); one digit 10% too frequent gives about 111.
      expect(chi2).toBeLessThan(60);
    }
  });
});

describe.each(databaseTargets())('SendVerificationCode ($name)', (target) => {
  let w: WalletWorld;
  const known = { email: 'known.shopper@example.com', phone: '+14155550142' };
  const send = (email: string | null, phoneNumber: string | null) =>
    call(w.app, 'SendVerificationCode', { email, phoneNumber }, SERVICE);

  beforeAll(async () => {
    w = await openWalletWorld(target);
    for (const contact of [{ CardEmail: known.email }, { PhoneNumber: known.phone }]) {
      const saved = await saveCard(w, {
        CardNumber: TEST_CARDS.visa,
        ExpirationDate: futureExpiry(),
        ...contact,
      });
      expect(saved.Status).toBe(true);
    }
  });
  afterAll(() => w?.close());

  it('a fresh 6-digit code per known contact, different on every call', async () => {
    const first = await send(' Known.Shopper@Example.com ', '(415) 555-0142');
    const second = await send(known.email, known.phone);
    for (const r of [first, second]) {
      expect(r.OneTimePasswordForEmail).toMatch(CODE);
      expect(r.OneTimePasswordForPhone).toMatch(CODE);
    }
    const codes = new Set<string>();
    for (let i = 0; i < 20; i++) codes.add((await send(known.email, null)).OneTimePasswordForEmail ?? '');
    expect(codes.size).toBeGreaterThan(15); // 20 draws from a million: repeats are rare
  });

  it('codes only for contacts on file: a victim e-mail paired with an unknown phone codes the e-mail only', async () => {
    expect(await send(known.email, '+442079460958')).toEqual({
      OneTimePasswordForEmail: expect.stringMatching(CODE),
      OneTimePasswordForPhone: '',
    });
    expect(await send('nobody@example.com', known.phone)).toEqual({
      OneTimePasswordForEmail: '',
      OneTimePasswordForPhone: expect.stringMatching(CODE),
    });
    expect(await send(known.email, null)).toEqual({
      OneTimePasswordForEmail: expect.stringMatching(CODE),
      OneTimePasswordForPhone: '',
    });
  });

  it('an unknown contact gets the same answer shape and status as a known one', async () => {
    const yes = await rawCall(
      w.app,
      'SendVerificationCode',
      { email: known.email, phoneNumber: known.phone },
      SERVICE,
    );
    const no = await rawCall(
      w.app,
      'SendVerificationCode',
      { email: 'nobody@example.com', phoneNumber: '+14155550199' },
      SERVICE,
    );
    expect(no.status).toBe(yes.status);
    expect(shapeOf(no.body)).toBe(shapeOf(yes.body));
    expect(shapeOf(yes.body)).toContain('OneTimePasswordForPhone OneTimePasswordForEmail');
    expect(Object.keys(await send('nobody@example.com', null)).sort()).toEqual(
      Object.keys(await send(known.email, null)).sort(),
    );
  });

  it('a code goes to nobody but the checkout server: merchants forbidden, no credential 401 (SOAP, HTTP POST), never over HTTP GET', async () => {
    for (const as of [w.a.as, w.b.as]) {
      const f = await rawCall(w.app, 'SendVerificationCode', { email: known.email }, as);
      expect(f.errorCode).toBe('forbidden');
      expect(f.body).not.toMatch(/OneTimePassword|\b\d{6}\b/);
    }
    const anonymous = await rawCall(w.app, 'SendVerificationCode', { email: known.email }, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toBe('');
    const post = await w.app.inject({
      method: 'POST',
      url: '/TransactionService.asmx/SendVerificationCode',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${encodeURIComponent(known.email)}&phoneNumber=`,
    });
    expect(post.statusCode).toBe(401);
    expect(post.body).not.toMatch(/\d{6}/);
    // Sending a code changes state: HTTP GET does not serve it (docs/gateway.md), credential or not.
    const get = await w.app.inject({
      method: 'GET',
      url: `/TransactionService.asmx/SendVerificationCode?email=${encodeURIComponent(known.email)}&phoneNumber=`,
    });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect(get.body).not.toMatch(/\d{6}/);
  });

  it('a missing or malformed contact is a client fault, whoever it is about', async () => {
    for (const [email, phoneNumber] of [
      [null, null],
      ['', '  '],
      ['not-an-email', null],
      [null, 'call me'],
    ] as const) {
      const f = await rawCall(w.app, 'SendVerificationCode', { email, phoneNumber }, SERVICE);
      expect(f.errorCode, `${email} ${phoneNumber}`).toBe('invalid_request');
    }
  });

  it('known and unknown contacts take about as long (50 calls each, interleaved; loose bound)', async () => {
    const time = async (email: string, phone: string) => {
      const start = process.hrtime.bigint();
      await send(email, phone);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    for (let i = 0; i < 10; i++) await time(known.email, known.phone); // warm-up
    const yes: number[] = [];
    const no: number[] = [];
    for (let i = 0; i < 50; i++) {
      const knownCall = () => time(known.email, known.phone);
      const unknownCall = () => time(`nobody.${i}@example.com`, `+1415555${String(1000 + i)}`);
      // Alternate which goes first, so neither pays for what the other leaves behind.
      if (i % 2) {
        yes.push(await knownCall());
        no.push(await unknownCall());
      } else {
        no.push(await unknownCall());
        yes.push(await knownCall());
      }
    }
    // Trimmed means, medians, and the largest gap between the two distributions (Kolmogorov–Smirnov
    // D), all with loose bounds: one GC pause or a noisy neighbour must not decide the test.
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const trimmed = (xs: number[]) => {
      const s = sorted(xs).slice(5, -5);
      return s.reduce((a, b) => a + b, 0) / s.length;
    };
    const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
    const ratio = (a: number, b: number) => Math.max(a, b) / Math.min(a, b);
    const below = (xs: number[], x: number) => xs.filter((v) => v <= x).length / xs.length;
    const ksD = Math.max(...[...yes, ...no].map((x) => Math.abs(below(yes, x) - below(no, x))));
    expect(ksD).toBeLessThan(0.5);
    expect(ratio(trimmed(yes), trimmed(no))).toBeLessThan(2);
    expect(ratio(median(yes), median(no))).toBeLessThan(2);
  });
});
