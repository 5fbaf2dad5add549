/**
 * The dashboard's roles (issue 16 "Team"), through the real app on both databases: the session
 * answers the user's role, and what a role may not do is refused by the server (403 forbidden),
 * whatever the page shows: a Viewer reads but neither refunds, settles nor makes a payment link;
 * Staff refunds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, card, pay } from '../../test/kit/gateway/gateway-kit.ts';
import { createUser } from '../gateway/users/user-store.ts';
import type { UserRole } from '../gateway/user-roles.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  type DashboardWorld,
  openDashboardWorld,
  PASSWORD,
} from '../../test/kit/dashboard/dashboard-world.ts';

describe.each(databaseTargets())('dashboard roles on $name', (target) => {
  let w: DashboardWorld;
  let viewer: string;
  let staff: string;

  async function userOfA(username: string, role: UserRole): Promise<string> {
    await createUser(w.db, { merchantId: w.a.id, username, password: PASSWORD, role });
    return w.signInVerified(username);
  }
  async function sale(amount: string): Promise<string> {
    const r = await call(w.t.app, 'ProcessTransaction', pay(w.a, card('4242424242424242', amount)), w.a.as);
    expect(r.ResponseCode).toBe('00');
    return r.TransactionID;
  }

  beforeAll(async () => {
    w = await openDashboardWorld(target);
    viewer = await userOfA('vic.viewer', 'viewer');
    staff = await userOfA('sam.staff', 'staff');
  });
  afterAll(() => w.close());

  it("answers the session's role; the first users stay owners", async () => {
    const ann = await w.signInVerified(w.users.ann);
    expect((await w.call('GET', '/session', { cookie: ann })).json()).toMatchObject({ role: 'Owner' });
    expect((await w.call('GET', '/session', { cookie: viewer })).json()).toMatchObject({ role: 'Viewer' });
    expect((await w.call('GET', '/session', { cookie: staff })).json()).toMatchObject({ role: 'Staff' });
  });

  it("refuses a Viewer's refund, settlement and payment link with 403; a Viewer still reads", async () => {
    const id = await sale('30.00');
    expect((await w.call('GET', `/payments/${id}`, { cookie: viewer })).statusCode).toBe(200);
    expect((await w.call('GET', '/settlement', { cookie: viewer })).statusCode).toBe(200);

    const refund = await w.call('POST', `/payments/${id}/refund`, {
      cookie: viewer,
      body: { amount: '5.00' },
    });
    expect(refund.statusCode).toBe(403);
    expect(refund.json().error).toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/Staff role/),
    });
    expect((await w.call('POST', '/settlement/settle', { cookie: viewer })).statusCode).toBe(403);
    const link = await w.call('POST', '/payment-links', {
      cookie: viewer,
      body: { amount: '42.00', orderNumber: 'INV-9', expiresInDays: 14 },
    });
    expect(link.statusCode).toBe(403);
    // Nothing was refunded.
    const after = (await w.call('GET', `/payments/${id}`, { cookie: viewer })).json();
    expect(after).toMatchObject({ payment: { refundedAmount: '0.00' }, refundable: '30.00' });
  });

  it('lets Staff refund', async () => {
    const id = await sale('30.00');
    const refund = await w.call('POST', `/payments/${id}/refund`, {
      cookie: staff,
      body: { amount: '5.00' },
    });
    expect(refund.statusCode).toBe(200);
    expect(refund.json()).toMatchObject({ approved: true });
  });
});
