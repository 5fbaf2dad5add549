/**
 * The dashboard's Developers API, its TransactionKey part (developer-routes.ts), through the real
 * app on both databases: the page's data names the merchant and fills the snippets with its id and
 * this server's address, never a key; an Owner rolls the key (the new key in that answer only, the
 * old one working for the overlap) and reads each key's last use; Admin, Staff and a Viewer are
 * refused by the server (403); the roll asks for a known overlap and passes the CSRF guard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRole } from '../gateway/user-roles.ts';
import { rawCall } from '../../test/kit/gateway/gateway-kit.ts';
import { createUser } from '../gateway/users/user-store.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import type { DevelopersView, KeyRollView, KeyStatusView } from './developer-routes.ts';
import { KEY_PLACEHOLDER } from './developer-snippets.ts';
import {
  type DashboardWorld,
  openDashboardWorld,
  PASSWORD,
  PUBLIC_URL,
} from '../../test/kit/dashboard/dashboard-world.ts';

describe.each(databaseTargets())('dashboard Developers: the TransactionKey on $name', (target) => {
  let w: DashboardWorld;
  let ann: string;
  let key: string;
  const works = async (k: string) =>
    (
      await rawCall(
        w.t.app,
        'GetMerchantInfo',
        { merchantID: w.a.id },
        { merchantId: w.a.id, key: k },
        '198.51.100.7',
      )
    ).status;
  async function userOfA(username: string, role: UserRole): Promise<string> {
    await createUser(w.db, { merchantId: w.a.id, username, password: PASSWORD, role });
    return w.signInVerified(username);
  }

  beforeAll(async () => {
    w = await openDashboardWorld(target);
    ann = await w.signInVerified(w.users.ann);
    key = w.a.key;
  });
  afterAll(() => w.close());

  it('answers the merchant id and snippets with its id and this server, never the key', async () => {
    const res = await w.call('GET', '/developers', { cookie: ann });
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json() as DevelopersView;
    expect(view.merchantId).toBe(w.a.id);
    expect(res.body).not.toContain(key);
    expect(view.snippets.rest).toContain(`${PUBLIC_URL}/v1/checkout-sessions`);
    expect(view.snippets.rest).toContain(`-u '${w.a.id}:${KEY_PLACEHOLDER}'`);
    expect(view.snippets.embed).toContain(`<script src="${PUBLIC_URL}/checkout.js" async></script>`);
    expect(view.snippets.embed).toContain('data-payframe-session=');
    expect(view.snippets.redirect).toContain(
      "'status', 'token', 'transactionId', 'orderNumber', 'amount', 'currency', 'timestamp'",
    );
    expect(view.snippets.redirect).toContain('previousSignature');
    expect(view.snippets.redirect).toContain(w.a.id);
  });

  it('rolls the key for an Owner: the new key once, the old one for the overlap; the status shows last uses', async () => {
    expect(await works(key)).toBe(200);
    const res = await w.call('POST', '/developers/key/roll', { cookie: ann, body: { overlap: 'OneHour' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const roll = res.json() as KeyRollView;
    expect(roll.transactionKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(roll.previousValidUntil).toBe(new Date(w.clock.now.getTime() + 3_600_000).toISOString());
    expect(await works(roll.transactionKey)).toBe(200);
    expect(await works(key)).toBe(200);

    const status = await w.call('GET', '/developers/key', { cookie: ann });
    expect(status.statusCode, status.body).toBe(200);
    const s = status.json() as KeyStatusView;
    expect(s.previousValidUntil).toBe(roll.previousValidUntil);
    expect(s.lastUsedAt).toBe(w.clock.now.toISOString());
    expect(s.previousLastUsedAt).toBe(w.clock.now.toISOString());
    expect(status.body).not.toContain(roll.transactionKey);
    expect(status.body).not.toContain(key);
    // Nothing else the dashboard reads answers it again.
    for (const path of ['/developers', '/session']) {
      const again = await w.call('GET', path, { cookie: ann });
      expect(again.body).not.toContain(roll.transactionKey);
    }
    // A second roll with no overlap ends both old keys at once.
    const none = await w.call('POST', '/developers/key/roll', { cookie: ann, body: { overlap: 'None' } });
    expect(none.statusCode).toBe(200);
    expect((none.json() as KeyRollView).previousValidUntil).toBeNull();
    expect(await works(key)).toBe(401);
    expect(await works(roll.transactionKey)).toBe(401);
    key = (none.json() as KeyRollView).transactionKey;
    expect(await works(key)).toBe(200);
  });

  it('refuses Admin, Staff and a Viewer with 403, and the key stays', async () => {
    for (const [name, role] of [
      ['adam.admin', 'admin'],
      ['stu.staff', 'staff'],
      ['vee.viewer', 'viewer'],
    ] as const) {
      const cookie = await userOfA(name, role);
      const roll = await w.call('POST', '/developers/key/roll', { cookie, body: { overlap: 'None' } });
      expect(roll.statusCode, roll.body).toBe(403);
      expect(roll.json()).toMatchObject({ error: { code: 'forbidden' } });
      expect((await w.call('GET', '/developers/key', { cookie })).statusCode).toBe(403);
      // The page's own data is every role's.
      expect((await w.call('GET', '/developers', { cookie })).statusCode).toBe(200);
    }
    expect(await works(key)).toBe(200);
  });

  it('asks for a known overlap, the CSRF header and a verified session', async () => {
    const bad = await w.call('POST', '/developers/key/roll', { cookie: ann, body: { overlap: 'Forever' } });
    expect(bad.statusCode).toBe(400);
    const noHeader = await w.call('POST', '/developers/key/roll', {
      cookie: ann,
      body: { overlap: 'None' },
      headers: { 'x-payframe-client': undefined },
    });
    expect(noHeader.statusCode).toBe(403);
    expect((await w.call('GET', '/developers', {})).statusCode).toBe(401);
    const unverified = await w.signIn(w.users.ann);
    expect(
      (await w.call('POST', '/developers/key/roll', { cookie: unverified, body: { overlap: 'None' } }))
        .statusCode,
    ).toBe(403);
    expect(await works(key)).toBe(200);
  });
});
