/**
 * Test support for the dashboard's API tests: the real app (role all) on a test database with a
 * clock the test moves, two merchants with a user each, and calls as the dashboard's page makes
 * them (its client header, JSON, its own origin). Second-factor codes are made with the gateway's
 * own TOTP (users/totp.ts), as an authenticator app would from the setup key.
 */
import type { LightMyRequestResponse } from 'fastify';
import { createMerchant, type TestMerchant } from '../gateway/gateway-kit.ts';
import { totpCode } from '../../../server/gateway/users/totp.ts';
import { createUser } from '../../../server/gateway/users/user-store.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import type { DatabaseTarget } from '../databases.ts';
import type { Database } from '../../../server/db/database.ts';

export const PUBLIC_URL = 'https://pay.example.test';
export const ORIGIN = new URL(PUBLIC_URL).origin;
export const COOKIE = '__Host-payframe_dashboard';
export const PASSWORD = 'correct horse 42 battery';
export const DASHBOARD_HEADERS = {
  'x-payframe-client': 'dashboard',
  'content-type': 'application/json',
  origin: ORIGIN,
  'sec-fetch-site': 'same-origin',
};

export interface CallOptions {
  cookie?: string | null;
  body?: unknown;
  /** Added to the page's headers; undefined leaves one out. */
  headers?: Record<string, string | undefined>;
  remoteAddress?: string;
}

export interface DashboardWorld {
  db: Database;
  t: TestApp;
  a: TestMerchant;
  b: TestMerchant;
  /** Users: ann of merchant A, bob of merchant B (password PASSWORD). */
  users: { ann: string; bob: string };
  clock: { now: Date };
  /** Moves the clock by `seconds`. */
  advance(seconds: number): void;
  call(method: 'GET' | 'POST' | 'PUT', path: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  /** The session token a response set, or null. */
  cookieOf(res: LightMyRequestResponse): string | null;
  /** Signs in with the password only: the cookie, second factor not yet verified. */
  signIn(username: string): Promise<string>;
  /** Signs in and verifies the second factor (enrolling the user at its first sign-in). */
  signInVerified(username: string): Promise<string>;
  /** The setup keys of enrolled users. */
  setupKeys: Map<string, string>;
  /** The current code of a user's authenticator (the clock moves past the last code's step first). */
  codeFor(username: string): string;
  close(): Promise<void>;
}

export async function openDashboardWorld(target: DatabaseTarget): Promise<DashboardWorld> {
  const db = await target.open();
  const clock = { now: new Date() };
  const t = await buildTestApp(
    db,
    { LOG_LEVEL: 'warn', PUBLIC_URL },
    { closeDatabase: true, now: () => clock.now },
  );
  const a = await createMerchant(t, db, 'Alpha Outfitters', false);
  const b = await createMerchant(t, db, 'Bravo Bikes', false);
  const users = { ann: 'ann.admin', bob: 'bob.books' };
  await createUser(db, {
    merchantId: a.id,
    username: users.ann,
    password: PASSWORD,
    email: 'ann@alpha.example',
  });
  await createUser(db, {
    merchantId: b.id,
    username: users.bob,
    password: PASSWORD,
    email: 'bob@bravo.example',
  });
  const setupKeys = new Map<string, string>();

  const world: DashboardWorld = {
    db,
    t,
    a,
    b,
    users,
    clock,
    setupKeys,
    advance(seconds) {
      clock.now = new Date(clock.now.getTime() + seconds * 1000);
    },
    call(method, path, options = {}) {
      const cookie = options.cookie ? { cookie: `${COOKIE}=${options.cookie}` } : {};
      const all = { ...(method !== 'GET' ? DASHBOARD_HEADERS : {}), ...cookie, ...options.headers };
      const headers = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<
        string,
        string
      >;
      return t.app.inject({
        method,
        url: `/dashboard/api${path}`,
        remoteAddress: options.remoteAddress ?? '203.0.113.50',
        headers,
        ...(method !== 'GET' ? { payload: JSON.stringify(options.body ?? {}) } : {}),
      });
    },
    cookieOf(res) {
      const header = res.headers['set-cookie'];
      const line = Array.isArray(header) ? header[0] : header;
      const m = new RegExp(`^${COOKIE}=(ls_[A-Za-z0-9_-]{43});`).exec(line ?? '');
      return m?.[1] ?? null;
    },
    async signIn(username) {
      const res = await world.call('POST', '/sign-in', { body: { username, password: PASSWORD } });
      const token = world.cookieOf(res);
      if (res.statusCode !== 200 || !token)
        throw new Error(`sign-in answered ${res.statusCode}: ${res.body}`);
      return token;
    },
    async signInVerified(username) {
      const cookie = await world.signIn(username);
      if (!setupKeys.has(username)) {
        const res = await world.call('POST', '/second-factor/enrolment', { cookie });
        if (res.statusCode !== 200) throw new Error(`enrolment answered ${res.statusCode}: ${res.body}`);
        setupKeys.set(username, res.json().setupKey);
      }
      const res = await world.call('POST', '/second-factor/verify', {
        cookie,
        body: { code: world.codeFor(username) },
      });
      if (res.statusCode !== 200) throw new Error(`verify answered ${res.statusCode}: ${res.body}`);
      return cookie;
    },
    codeFor(username) {
      const key = setupKeys.get(username);
      if (!key) throw new Error(`${username} is not enrolled`);
      // Each code is accepted once: the next one is a step (30 s) later.
      world.advance(30);
      return totpCode(key, clock.now);
    },
    close: () => t.close(),
  };
  return world;
}
