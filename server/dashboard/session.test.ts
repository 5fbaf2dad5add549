/**
 * The dashboard's sign-in (issue 15 "Signing in"; API tests): no call without a session, none but
 * the session's own before the second factor, CSRF refused, a new session at every sign-in, one
 * answer for every failed sign-in, the second factor's enrolment and its codes, sign-out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILURES_PER_ADDRESS } from '../gateway/operations/user-operations.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  COOKIE,
  type DashboardWorld,
  ORIGIN,
  openDashboardWorld,
  PASSWORD,
} from '../../test/kit/dashboard/dashboard-world.ts';

/** Every route that needs a verified second factor, with a body where it takes one. */
const GATED: [method: 'GET' | 'POST', path: string, body?: unknown][] = [
  ['GET', '/overview'],
  ['GET', '/payments'],
  ['GET', '/payments/export.csv'],
  ['GET', '/payments/1'],
  ['POST', '/payments/1/refund', { amount: '1.00' }],
  ['POST', '/payments/1/void', {}],
  ['POST', '/payments/1/capture', {}],
  ['GET', '/payment-links'],
  ['POST', '/payment-links', { amount: '5.00', orderNumber: 'L-1', expiresInDays: 7 }],
  ['POST', `/payment-links/cs_${'a'.repeat(43)}/cancel`, {}],
  ['GET', '/settlement'],
  ['POST', '/settlement/settle', {}],
];

/** Routes of the session itself: a session is needed, the second factor not. */
const SESSION_ONLY: [method: 'GET' | 'POST', path: string][] = [
  ['GET', '/session'],
  ['POST', '/second-factor/enrolment'],
  ['POST', '/second-factor/verify'],
  ['POST', '/sign-out'],
];

describe.each(databaseTargets())('dashboard sign-in on $name', (target) => {
  let w: DashboardWorld;
  beforeAll(async () => {
    w = await openDashboardWorld(target);
  });
  afterAll(() => w.close());

  it('answers 401 to every call but sign-in and forgot-password without a session', async () => {
    for (const [method, path, body] of [...GATED, ...SESSION_ONLY]) {
      const res = await w.call(method, path, { body: body ?? { code: '123456' } });
      expect(res.statusCode, `${method} ${path}`).toBe(401);
      expect(res.json().error.code, `${method} ${path}`).toBe('unauthorized');
    }
    // A cookie that names no session is no better.
    const res = await w.call('GET', '/session', { cookie: `ls_${'x'.repeat(43)}` });
    expect(res.statusCode).toBe(401);
    expect(res.headers['set-cookie']).toMatch(new RegExp(`^${COOKIE}=; .*Max-Age=0`));
  });

  it('answers every failed sign-in the same: unknown user, wrong password, empty fields', async () => {
    const answers = await Promise.all(
      [
        { username: w.users.ann, password: 'wrong password 42' },
        { username: 'nobody.here', password: PASSWORD },
        { username: '', password: '' },
      ].map((body) => w.call('POST', '/sign-in', { body, remoteAddress: '203.0.113.77' })),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
      const { code, message } = res.json().error;
      expect({ code, message }).toEqual({
        code: 'sign_in_failed',
        message: 'The user name or password is not correct.',
      });
    }
  });

  it("passes Login's throttle on: 429 with Retry-After once an address failed too often", async () => {
    const from = '203.0.113.99';
    const body = { username: 'nobody.here', password: 'not the password 1' };
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
      expect((await w.call('POST', '/sign-in', { body, remoteAddress: from })).statusCode).toBe(401);
    }
    const refused = await w.call('POST', '/sign-in', {
      body: { username: w.users.ann, password: PASSWORD },
      remoteAddress: from,
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['set-cookie']).toBeUndefined();
    // Another address signs in as usual.
    expect(
      (await w.call('POST', '/sign-in', { body: { username: w.users.ann, password: PASSWORD } })).statusCode,
    ).toBe(200);
  });

  it('sets a __Host- cookie (Secure, HttpOnly, SameSite=Strict, Path=/) with a new token at each sign-in', async () => {
    const first = await w.call('POST', '/sign-in', { body: { username: w.users.ann, password: PASSWORD } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ secondFactor: 'EnrolmentRequired' });
    const header = String(first.headers['set-cookie']);
    expect(header).toMatch(new RegExp(`^${COOKIE}=ls_[A-Za-z0-9_-]{43}; `));
    for (const attribute of ['Path=/', 'HttpOnly', 'SameSite=Strict', 'Secure', 'Max-Age=43200'])
      expect(header.split('; ')).toContain(attribute);
    expect(header).not.toMatch(/Domain=/i);
    const old = w.cookieOf(first)!;

    // Signing in again while holding a session: a new token, and the old one is ended.
    const second = await w.call('POST', '/sign-in', {
      cookie: old,
      body: { username: w.users.ann, password: PASSWORD },
    });
    const token = w.cookieOf(second)!;
    expect(token).not.toBe(old);
    expect((await w.call('GET', '/session', { cookie: old })).statusCode).toBe(401);
    const session = await w.call('GET', '/session', { cookie: token });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({
      user: { name: w.users.ann, email: 'ann@alpha.example' },
      merchant: { id: w.a.id, name: 'Alpha Outfitters' },
      secondFactor: 'EnrolmentRequired',
    });
    expect(new Date(session.json().idleExpiresAt).getTime()).toBe(w.clock.now.getTime() + 15 * 60_000);
  });

  it("refuses every call but the session's own with 403 second_factor_required before the second factor", async () => {
    const cookie = await w.signIn(w.users.ann);
    for (const [method, path, body] of GATED) {
      const res = await w.call(method, path, { cookie, body });
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json().error.code, `${method} ${path}`).toBe('second_factor_required');
    }
  });

  it('enrols with a QR code and a setup key, refuses a wrong code, then answers ten recovery codes once', async () => {
    const cookie = await w.signIn(w.users.ann);
    const enrolment = await w.call('POST', '/second-factor/enrolment', { cookie });
    expect(enrolment.statusCode).toBe(200);
    const { setupKey, otpauthUri, qrSvg } = enrolment.json();
    expect(setupKey).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauthUri).toContain(`secret=${setupKey}`);
    expect(qrSvg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>/);
    expect(qrSvg).not.toMatch(/<script|href=/i);
    w.setupKeys.set(w.users.ann, setupKey);

    const wrong = await w.call('POST', '/second-factor/verify', { cookie, body: { code: '000000' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('invalid_code');
    expect((await w.call('GET', '/overview', { cookie })).json().error.code).toBe('second_factor_required');

    const code = w.codeFor(w.users.ann);
    const right = await w.call('POST', '/second-factor/verify', { cookie, body: { code } });
    expect(right.statusCode).toBe(200);
    const { recoveryCodes } = right.json();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await w.call('GET', '/session', { cookie })).json().secondFactor).toBe('Verified');

    // The next sign-in asks for a code; a used one is refused, a recovery code works once.
    const next = await w.call('POST', '/sign-in', { body: { username: w.users.ann, password: PASSWORD } });
    expect(next.json()).toEqual({ secondFactor: 'Required' });
    const again = w.cookieOf(next)!;
    const reused = await w.call('POST', '/second-factor/verify', { cookie: again, body: { code } });
    expect(reused.json().error.code).toBe('invalid_code');
    const byRecovery = await w.call('POST', '/second-factor/verify', {
      cookie: again,
      body: { code: recoveryCodes[0] },
    });
    expect(byRecovery.statusCode).toBe(200);
    expect(byRecovery.json()).toEqual({});
  });

  it('signs out: 204, the cookie cleared, the session over', async () => {
    const cookie = await w.signInVerified(w.users.ann);
    const res = await w.call('POST', '/sign-out', { cookie });
    expect(res.statusCode).toBe(204);
    expect(res.headers['set-cookie']).toMatch(new RegExp(`^${COOKIE}=; .*Max-Age=0`));
    expect((await w.call('GET', '/session', { cookie })).statusCode).toBe(401);
  });

  it('ends a session left idle for 15 minutes', async () => {
    const cookie = await w.signInVerified(w.users.ann);
    w.advance(14 * 60);
    expect((await w.call('GET', '/overview', { cookie })).statusCode).not.toBe(401);
    w.advance(15 * 60);
    expect((await w.call('GET', '/overview', { cookie })).statusCode).toBe(401);
  });

  it('refuses a state-changing call without the client header, as text, from another origin or site', async () => {
    const body = { username: w.users.ann, password: PASSWORD };
    const refusals = [
      { 'x-payframe-client': '' },
      { 'x-payframe-client': 'widget' },
      { 'content-type': 'text/plain' },
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of refusals) {
      const res = await w.call('POST', '/sign-in', { body, headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // A signed-in user's change is refused the same way, before anything reaches the gateway.
    const cookie = await w.signInVerified(w.users.ann);
    const settle = await w.call('POST', '/settlement/settle', {
      cookie,
      headers: { origin: 'https://evil.example' },
    });
    expect(settle.statusCode).toBe(403);
    // Without Origin and Sec-Fetch-Site (an older browser), the header and the type suffice.
    const plain = await w.call('POST', '/sign-in', {
      body,
      headers: { origin: undefined, 'sec-fetch-site': undefined },
    });
    expect(plain.statusCode).toBe(200);
    expect((await w.call('POST', '/sign-in', { body, headers: { origin: ORIGIN } })).statusCode).toBe(200);
  });

  it("forgot-password answers the gateway's one message whether or not the user exists", async () => {
    const known = await w.call('POST', '/forgot-password', {
      body: { username: w.users.ann, email: 'ann@alpha.example' },
    });
    const unknown = await w.call('POST', '/forgot-password', {
      body: { username: 'nobody.here', email: 'nobody@example.com' },
    });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toMatch(/\S/);
  });

  it('answers no-store on the API', async () => {
    const res = await w.call('GET', '/session');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
