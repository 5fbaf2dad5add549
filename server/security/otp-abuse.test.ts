/**
 * Abuse of the one-time codes of the saved-card wallet (security-requirements.md OTP-4, OTP-6,
 * OTP-7, OTP-9; attack rows 24, 27, 28), at the widget's endpoints of the real app:
 *
 * - Row 24, brute force: 1,000 guesses at one code, each from its own address (so the per-address
 *   limits never help). The code is burned by the 5th wrong guess, the session's verify limit
 *   answers 429 soon after, and no guess succeeds — not even the right code, sent last.
 * - Row 27, enumeration by timing: for e-mail addresses with a wallet and without one, the status,
 *   the body's shape and the response time are alike. The time check is statistical and loose on
 *   purpose (the ratio of the two medians of one interleaved run, under 3×), so it catches a send
 *   made before the answer or a lookup that short-cuts, not scheduler noise.
 * - Row 28, SMS pumping: a flood of sends to many (premium-rate) numbers, each from its own address
 *   and spread over sessions, slips under every per-destination, per-address and per-session
 *   limit. The global SMS budget (rate-limit.ts `smsSendsGlobal`, a database counter shared by every
 *   instance) stops it: 429 with the generic body, the same for numbers with and without a wallet,
 *   an alert in the log, and e-mail codes unaffected. Codes only ever go to numbers on file, so the
 *   flood itself sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WRONG_TRIES } from '../checkout/otp.ts';
import { DEFAULT_LIMITS } from '../checkout/rate-limit.ts';
import {
  type CheckoutWorld,
  manualClock,
  openCheckoutWorld,
} from '../../test/kit/checkout/checkout-world.ts';
import { SMS_BUDGET_BUCKET } from '../checkout/wallet-routes.ts';
import { listOutbox } from '../notify/outbox.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { addresses, deliveredCode, saveCard, walletPost, walletSession } from '../../test/kit/security.ts';

const GUESSES = 1_000;
const BATCH = 25;

const PAIRS = 30;
const WARMUP = 3;
const KNOWN = 7; // 5 sends per address per hour: 7 addresses cover 33 sends

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const BUDGET = DEFAULT_LIMITS.smsSendsGlobal;
/** Sends left in the budget when the flood starts (the counter is set just below the default). */
const LEFT = 12;
const FLOOD = 40;

describe.each(databaseTargets())('one-time code abuse ($name)', (target) => {
  // Frozen at the real time: the SMS budget's window cannot roll over mid-test (its test moves it last).
  const clock = manualClock();
  let w: CheckoutWorld;
  const nextIp = addresses('100.64');
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open(), { now: clock.now });
  });
  afterAll(() => w?.close());

  it('row 24: 1,000 guesses at one code: burned after 5 wrong, throttled, never a success', async () => {
    const email = `brute.${Date.now() % 100000}@example.com`;
    await saveCard(w, { email });
    const token = await walletSession(w, email);
    const sent = await walletPost(w, token, 'send-code', { email }, nextIp());
    expect(sent.statusCode).toBe(202);
    const verificationId = sent.json().verificationId as string;
    const code = await deliveredCode(w, email);
    expect(code).toMatch(/^\d{6}$/);

    // Wrong guesses only (the right code is tried last), in concurrent batches as an attacker would.
    const guesses = Array.from({ length: GUESSES }, (_, i) =>
      String((Number(code) + 1 + i * 997) % 1_000_000).padStart(6, '0'),
    ).filter((g) => g !== code);
    const outcomes = new Map<string, number>();
    for (let i = 0; i < guesses.length; i += BATCH) {
      const answers = await Promise.all(
        guesses
          .slice(i, i + BATCH)
          .map((guess) => walletPost(w, token, 'verify', { verificationId, code: guess }, nextIp())),
      );
      for (const res of answers) {
        const body = res.json();
        const outcome = `${res.statusCode} ${body.error?.fields?.[0]?.code ?? body.error?.code ?? 'ok'}`;
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
    }
    const last = await walletPost(w, token, 'verify', { verificationId, code }, nextIp());

    process.stdout.write(`row 24 (${target.name}): ${JSON.stringify(Object.fromEntries(outcomes))}\n`);
    // No success, at most MAX_WRONG_TRIES answers that a guess was merely wrong.
    expect([...outcomes.keys()].every((o) => !o.startsWith('200'))).toBe(true);
    expect(outcomes.get('400 code_invalid') ?? 0).toBeLessThanOrEqual(MAX_WRONG_TRIES);
    expect(outcomes.get('429 rate_limited') ?? 0).toBeGreaterThan(GUESSES - 50);
    expect(last.statusCode).not.toBe(200);
    expect(last.json().walletToken).toBeUndefined();
  });

  it('row 27: send-code answers known and unknown contacts with the same status, shape and time', async () => {
    const run = `${Date.now() % 100000}`;
    const known = Array.from({ length: KNOWN }, (_, i) => `known.${run}.${i}@example.com`);
    for (const email of known) await saveCard(w, { email });

    const times = { known: [] as number[], unknown: [] as number[] };
    const shapes = new Set<string>();
    for (let i = 0; i < PAIRS + WARMUP; i += 1) {
      const pair = [
        { kind: 'known' as const, email: known[i % KNOWN]! },
        { kind: 'unknown' as const, email: `nobody.${run}.${i}@example.com` },
      ];
      if (i % 2) pair.reverse(); // neither kind always goes first
      for (const { kind, email } of pair) {
        const token = await walletSession(w, email);
        const ip = nextIp();
        const started = process.hrtime.bigint();
        const res = await walletPost(w, token, 'send-code', { email }, ip);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        expect(res.statusCode).toBe(202);
        const body = res.json() as { verificationId: string; channels: { channel: string; to: string }[] };
        shapes.add(
          JSON.stringify({
            keys: Object.keys(body),
            id: body.verificationId.length,
            channels: body.channels.map((c) => c.channel),
            headers: Object.keys(res.headers).sort(),
          }),
        );
        if (i >= WARMUP) times[kind].push(ms);
      }
      // What the known send queued goes out between pairs, not during the next measurement.
      await w.t.gateway.deps.notifier.flush();
    }
    expect(shapes.size).toBe(1);
    // The control: known contacts did get a code, unknown ones nothing.
    expect(await deliveredCode(w, known[0]!)).toMatch(/^\d{6}$/);
    expect(await deliveredCode(w, `nobody.${run}.${WARMUP}@example.com`)).toBeNull();

    const k = median(times.known);
    const u = median(times.unknown);
    process.stdout.write(
      `send-code medians (${target.name}): known ${k.toFixed(2)} ms, unknown ${u.toFixed(2)} ms\n`,
    );
    expect(Math.max(k, u) / Math.min(k, u)).toBeLessThan(3);
  });

  it('row 28: the global SMS budget has a default, and it is a bound a flood can reach', () => {
    expect(BUDGET.limit).toBeGreaterThan(0);
    expect(BUDGET.limit).toBeLessThanOrEqual(5_000);
    expect(BUDGET.windowMs).toBeGreaterThanOrEqual(60 * 60_000);
    expect(w.checkout.deps.limits.smsSendsGlobal).toEqual(BUDGET);
  });

  it('row 28: an SMS flood over many numbers, addresses and sessions hits the budget: 429, alert, nothing sent', async () => {
    // Two numbers with a wallet hide among premium-rate numbers without one.
    const known = ['+14155550101', '+14155550102'];
    for (const phone of known) await saveCard(w, { phone });
    // The rest of the hour's traffic so far: the budget has LEFT sends to go.
    const windowStart = new Date(Math.floor(clock.now().getTime() / BUDGET.windowMs) * BUDGET.windowMs);
    await w.db.query('insert into checkout_rate_counters (bucket, window_start, hits) values ($1, $2, $3)', [
      SMS_BUDGET_BUCKET,
      windowStart,
      BUDGET.limit - LEFT,
    ]);

    const answers: { phone: string; status: number; body: unknown }[] = [];
    let token = '';
    for (let i = 0; i < FLOOD; i += 1) {
      // Under every other limit: a new session every 4 sends, a new address and number each time.
      if (i % 4 === 0) token = await walletSession(w, `flood.${i}@example.com`);
      const phone = i === 5 ? known[0]! : i === LEFT + 3 ? known[1]! : `+1900555${String(1000 + i)}`;
      const res = await walletPost(w, token, 'send-code', { phone }, nextIp());
      answers.push({ phone, status: res.statusCode, body: res.json() });
    }

    const accepted = answers.filter((a) => a.status === 202);
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toHaveLength(LEFT);
    expect(refused).toHaveLength(FLOOD - LEFT);
    expect(answers.slice(0, LEFT).every((a) => a.status === 202)).toBe(true);
    // The refusal is the same generic body for a number with a wallet and one without.
    const knownRefused = refused.find((a) => a.phone === known[1]);
    expect(knownRefused).toBeDefined();
    const withoutRequestId = (body: unknown) =>
      JSON.stringify(body, (key, value: unknown) => (key === 'requestId' ? undefined : value));
    expect(new Set(refused.map((a) => withoutRequestId(a.body))).size).toBe(1);
    expect(refused[0]!.body).toMatchObject({ error: { code: 'rate_limited' } });

    // Only the number on file that got in before the budget ran out received a code.
    await w.t.gateway.deps.notifier.flush();
    const sms = (await listOutbox(w.db, { limit: 200 })).filter((m) => m.channel === 'sms');
    expect(sms.map((m) => m.to)).toEqual([known[0]]);

    // An alert for the operators.
    expect(w.t.logLines.join('\n')).toContain('sms_budget_exhausted');

    // E-mail codes are not part of the SMS budget.
    const emailSession = await walletSession(w, 'after.flood@example.com');
    const email = await walletPost(
      w,
      emailSession,
      'send-code',
      { email: 'after.flood@example.com' },
      nextIp(),
    );
    expect(email.statusCode).toBe(202);

    // The next window starts a fresh budget.
    clock.advance(BUDGET.windowMs);
    const fresh = await walletSession(w, 'next.hour@example.com');
    expect((await walletPost(w, fresh, 'send-code', { phone: '+19005559999' }, nextIp())).statusCode).toBe(
      202,
    );
  });
});
