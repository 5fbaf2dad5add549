/**
 * The dashboard's Settings routes (settings-routes.ts) through the real app on both databases: an
 * Owner reads and replaces the settings; a refused value is a 400 naming the form's field, with
 * nothing saved; a new session's hosted page and its API carry the brand colour and radius; a
 * Viewer reads but its PUT is refused by the server (403). And the preview page the Settings page
 * frames (`/pay/preview`): a sample session framed by this origin only, that nothing can pay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, SHOP_ORIGIN } from '../../test/kit/gateway/gateway-kit.ts';
import { createUser } from '../gateway/users/user-store.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import type { SettingsBody } from './settings-routes.ts';
import {
  type DashboardWorld,
  openDashboardWorld,
  PASSWORD,
} from '../../test/kit/dashboard/dashboard-world.ts';

const ORIGIN_B = 'https://store.alpha.example';

describe.each(databaseTargets())('dashboard settings on $name', (target) => {
  let w: DashboardWorld;
  let owner: string;
  let viewer: string;

  beforeAll(async () => {
    w = await openDashboardWorld(target);
    owner = await w.signInVerified(w.users.ann);
    await createUser(w.db, {
      merchantId: w.a.id,
      username: 'vic.viewer',
      password: PASSWORD,
      role: 'viewer',
    });
    viewer = await w.signInVerified('vic.viewer');
  });
  afterAll(() => w.close());

  const read = async (cookie = owner) => {
    const res = await w.call('GET', '/settings', { cookie });
    expect(res.statusCode).toBe(200);
    return (res.json() as { settings: SettingsBody & { merchantId: string } }).settings;
  };
  const body = async (change: Partial<SettingsBody>): Promise<SettingsBody> => {
    const { merchantId: _, ...rest } = await read();
    return { ...rest, ...change };
  };

  it("answers the merchant's settings", async () => {
    expect(await read()).toMatchObject({
      merchantId: w.a.id,
      brandColor: null,
      cornerRadius: null,
      returnMode: 'immediate',
      methods: ['card', 'ach'],
      origins: [SHOP_ORIGIN],
    });
  });

  it("saves them; a new session's hosted page and API carry the brand colour and radius", async () => {
    const res = await w.call('PUT', '/settings', {
      cookie: owner,
      body: await body({
        displayName: 'Alpha Outdoor',
        brandColor: '#FFD600',
        cornerRadius: 16,
        origins: [SHOP_ORIGIN, ORIGIN_B],
      }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().settings).toMatchObject({
      displayName: 'Alpha Outdoor',
      brandColor: '#ffd600',
      cornerRadius: 16,
      origins: [SHOP_ORIGIN, ORIGIN_B],
    });

    const made = await call(
      w.t.app,
      'CreateHostedPayment',
      { request: { MerchantID: w.a.id, Amount: '5.00', OrderNumber: 'B-1' } },
      w.a.as,
    );
    const api = await w.t.app.inject({ method: 'GET', url: `/api/checkout/sessions/${made.Token!}` });
    expect(api.json()).toMatchObject({
      merchant: { name: 'Alpha Outdoor', brandColor: '#ffd600', cornerRadius: 16 },
    });
    const page = await w.t.app.inject({ method: 'GET', url: `/pay/${made.Token!}?embed=1` });
    expect(page.headers['content-security-policy']).toContain(`frame-ancestors ${SHOP_ORIGIN} ${ORIGIN_B}`);
    if (page.statusCode === 200) expect(page.body).toContain('"brandColor":"#ffd600","cornerRadius":16');
  });

  it('Terms and Privacy links, the postal code and the receipt e-mail: saved, and carried to a new session', async () => {
    expect(await read()).toMatchObject({
      termsUrl: null,
      privacyUrl: null,
      postalCodeRequired: false,
      receiptEmail: true,
    });
    const res = await w.call('PUT', '/settings', {
      cookie: owner,
      body: await body({
        termsUrl: 'https://alpha.example/terms',
        privacyUrl: 'https://alpha.example/privacy',
        postalCodeRequired: true,
        receiptEmail: false,
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().settings).toMatchObject({
      termsUrl: 'https://alpha.example/terms',
      privacyUrl: 'https://alpha.example/privacy',
      postalCodeRequired: true,
      receiptEmail: false,
    });
    expect(await w.t.gateway.deps.merchants.get(w.db, w.a.id)).toMatchObject({
      termsUrl: 'https://alpha.example/terms',
      privacyUrl: 'https://alpha.example/privacy',
      postalCodeRequired: true,
      receiptEmail: false,
    });
    const made = await call(
      w.t.app,
      'CreateHostedPayment',
      { request: { MerchantID: w.a.id, Amount: '5.00', OrderNumber: 'T-1' } },
      w.a.as,
    );
    const api = await w.t.app.inject({ method: 'GET', url: `/api/checkout/sessions/${made.Token!}` });
    expect(api.json()).toMatchObject({
      merchant: { termsUrl: 'https://alpha.example/terms', privacyUrl: 'https://alpha.example/privacy' },
      postalCode: 'required',
    });

    // Left out of the body (a page that predates them): the switches stay; the links are cleared.
    const { postalCodeRequired: _p, receiptEmail: _r, ...older } = await body({ termsUrl: null });
    const kept = await w.call('PUT', '/settings', { cookie: owner, body: older });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().settings).toMatchObject({
      termsUrl: null,
      postalCodeRequired: true,
      receiptEmail: false,
    });

    const back = await w.call('PUT', '/settings', {
      cookie: owner,
      body: await body({ privacyUrl: null, postalCodeRequired: false, receiptEmail: true }),
    });
    expect(back.statusCode).toBe(200);
    const again = await call(
      w.t.app,
      'CreateHostedPayment',
      { request: { MerchantID: w.a.id, Amount: '5.00', OrderNumber: 'T-2' } },
      w.a.as,
    );
    const view = (
      await w.t.app.inject({ method: 'GET', url: `/api/checkout/sessions/${again.Token!}` })
    ).json();
    expect(view).toMatchObject({ merchant: { termsUrl: null, privacyUrl: null }, postalCode: 'hidden' });
  });

  it('refuses a wrong value with 400 naming the field, and saves nothing', async () => {
    const was = await read();
    for (const [change, field] of [
      [{ brandColor: 'red' }, 'brandColor'],
      [{ logoUrl: 'http://cdn.example/logo.png' }, 'logoUrl'],
      [{ origins: ['https://shop.example/path'] }, 'origins'],
      [{ cornerRadius: 30 }, 'cornerRadius'],
      [{ methods: [] }, 'methods'],
      [{ displayName: 'Pаypal' }, 'displayName'],
      [{ termsUrl: 'http://alpha.example/terms' }, 'termsUrl'],
      [{ privacyUrl: 'javascript:alert(1)' }, 'privacyUrl'],
      [{ termsUrl: 'https://user:pw@alpha.example/terms' }, 'termsUrl'],
    ] as const) {
      const res = await w.call('PUT', '/settings', {
        cookie: owner,
        body: await body({ website: 'https://changed.example', ...change } as Partial<SettingsBody>),
      });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', fields: [{ field }] });
      expect(res.json().error.fields[0].message).toContain(field);
    }
    expect(await read()).toEqual(was);
  });

  it('lets a Viewer read the settings; its PUT is refused by the server (403)', async () => {
    const was = await read(viewer);
    const res = await w.call('PUT', '/settings', {
      cookie: viewer,
      body: await body({ brandColor: '#000000' }),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/Admin role/),
    });
    expect(await read()).toEqual(was);
  });

  it('refuses a PUT without the dashboard client header (CSRF)', async () => {
    const res = await w.call('PUT', '/settings', {
      cookie: owner,
      body: await body({ brandColor: '#000000' }),
      headers: { 'x-payframe-client': undefined },
    });
    expect(res.statusCode).toBe(403);
    expect((await read()).brandColor).not.toBe('#000000');
  });

  it('serves the preview: framed by this origin only, a sample session that cannot be paid', async () => {
    const page = await w.t.app.inject({ method: 'GET', url: '/pay/preview' });
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(page.headers['cache-control']).toBe('no-store');
    if (page.statusCode === 200) expect(page.body).toContain('"token":"preview"');
    const pay = await w.t.app.inject({
      method: 'POST',
      url: '/api/checkout/sessions/preview/pay',
      headers: { 'content-type': 'application/json', 'x-payframe-client': 'widget' },
      payload: JSON.stringify({
        method: 'card',
        card: { number: '4242424242424242', expiry: '12/40', cvv: '123' },
      }),
    });
    expect(pay.statusCode).toBeGreaterThanOrEqual(400);
    expect(pay.statusCode).toBeLessThan(500);
  });
});
