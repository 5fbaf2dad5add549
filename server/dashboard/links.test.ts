/**
 * Payment links in the dashboard (issue 15 "Payment links"; API tests) on both databases: a link is
 * a checkout session that lives for the days chosen, answered with its address and a QR code,
 * e-mailed to the customer through the notifier (the dev outbox here), listed with its status,
 * canceled while open; paid by a shopper, it is listed paid and can no longer be canceled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardBody, pay } from '../../test/kit/checkout/checkout-world.ts';
import { call } from '../../test/kit/gateway/gateway-kit.ts';
import { listOutbox } from '../notify/outbox.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  type DashboardWorld,
  openDashboardWorld,
  PUBLIC_URL,
} from '../../test/kit/dashboard/dashboard-world.ts';

describe.each(databaseTargets())('dashboard payment links on $name', (target) => {
  let w: DashboardWorld;
  let ann: string;
  let bob: string;
  beforeAll(async () => {
    w = await openDashboardWorld(target);
    ann = await w.signInVerified(w.users.ann);
    bob = await w.signInVerified(w.users.bob);
  });
  afterAll(() => w.close());

  const newLink = (cookie: string, body: Record<string, unknown> = {}) =>
    w.call('POST', '/payment-links', {
      cookie,
      body: { amount: '42.00', orderNumber: 'INV-7', expiresInDays: 14, ...body },
    });

  it('creates a link that lives for the days chosen, with its address and a QR code, and e-mails it', async () => {
    const res = await newLink(ann, { email: 'carol@customer.example', description: 'Two blue chairs' });
    expect(res.statusCode, res.body).toBe(201);
    const { link, qrSvg } = res.json();
    expect(link).toMatchObject({
      token: expect.stringMatching(/^cs_/),
      amount: '42.00',
      currency: 'USD',
      orderNumber: 'INV-7',
      email: 'carol@customer.example',
      description: 'Two blue chairs',
      status: 'Open',
    });
    expect(link.url).toBe(`${PUBLIC_URL}/pay/${link.token}`);
    expect(new Date(link.expiresAt).getTime()).toBe(w.clock.now.getTime() + 14 * 86_400_000);
    expect(qrSvg).toMatch(/^<svg /);

    await w.t.gateway.deps.notifier.flush();
    const [mail] = await listOutbox(w.db, { to: 'carol@customer.example' });
    expect(mail).toMatchObject({
      channel: 'email',
      purpose: 'invoice',
      subject: 'Payment request from Alpha Outfitters',
    });
    expect(mail!.text).toContain('Alpha Outfitters asks you to pay 42.00 USD for order INV-7.');
    expect(mail!.text).toContain('Two blue chairs');
    expect(mail!.text).toContain(`Pay here: ${link.url}\n`);

    // The shopper's page opens it.
    const page = await w.t.app.inject({ method: 'GET', url: `/pay/${link.token}` });
    expect([200, 503]).toContain(page.statusCode);
  });

  it('sends no e-mail without an address, and refuses what a link cannot be', async () => {
    await w.t.gateway.deps.notifier.flush();
    const before = (await listOutbox(w.db)).length;
    expect((await newLink(ann, { orderNumber: 'INV-8', expiresInDays: 1 })).statusCode).toBe(201);
    await w.t.gateway.deps.notifier.flush();
    expect((await listOutbox(w.db)).length).toBe(before);

    const bad = await newLink(ann, { amount: '0', expiresInDays: 60, email: 'not an address' });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .error.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['amount', 'email', 'expiresInDays']);
  });

  it("lists the merchant's links newest first, pages with after, and never another merchant's", async () => {
    const mine = (await newLink(ann, { orderNumber: 'INV-9' })).json().link.token;
    const theirs = (await newLink(bob, { orderNumber: 'B-1' })).json().link.token;
    const list = (await w.call('GET', '/payment-links', { cookie: ann })).json();
    expect(list.links[0]).toMatchObject({ token: mine, status: 'Open', orderNumber: 'INV-9' });
    expect(list.links.map((l: { token: string }) => l.token)).not.toContain(theirs);
    const after = (await w.call('GET', `/payment-links?after=${mine}`, { cookie: ann })).json();
    expect(after.links.map((l: { token: string }) => l.token)).not.toContain(mine);
    expect(after.links[0].orderNumber).toBe('INV-8');
  });

  it("lists links only: a shop's checkout session is not one, and cannot be canceled here", async () => {
    const shop = await call(
      w.t.app,
      'CreateHostedPayment',
      { request: { MerchantID: w.a.id, Amount: '4.00', OrderNumber: 'SHOP-1' } },
      w.a.as,
    );
    expect(shop.Success).toBe(true);
    const link = (await newLink(ann, { orderNumber: 'INV-11' })).json().link.token;
    const list = (await w.call('GET', '/payment-links', { cookie: ann })).json();
    const tokens = list.links.map((l: { token: string }) => l.token);
    expect(tokens).toContain(link);
    expect(tokens).not.toContain(shop.Token);
    const cancel = await w.call('POST', `/payment-links/${shop.Token}/cancel`, { cookie: ann });
    expect(cancel.statusCode).toBe(404);
    const still = await call(w.t.app, 'GetCheckoutSession', { token: shop.Token }, w.a.as);
    expect(still.Status).toBe('Open');
  });

  it("cancels an open link (twice answers the same); another merchant's is 404", async () => {
    const token = (await newLink(ann, { orderNumber: 'INV-10' })).json().link.token;
    expect((await w.call('POST', `/payment-links/${token}/cancel`, { cookie: bob })).statusCode).toBe(404);
    const res = await w.call('POST', `/payment-links/${token}/cancel`, { cookie: ann });
    expect(res.statusCode).toBe(200);
    expect(res.json().link).toMatchObject({ token, status: 'Canceled' });
    const again = await w.call('POST', `/payment-links/${token}/cancel`, { cookie: ann });
    expect(again.json().link.status).toBe('Canceled');
    const list = (await w.call('GET', '/payment-links', { cookie: ann })).json();
    expect(list.links.find((l: { token: string }) => l.token === token).status).toBe('Canceled');
  });

  it('shows a link paid by a shopper as paid, with its transaction, and refuses to cancel it', async () => {
    const token = (await newLink(ann, { orderNumber: 'INV-11', email: 'dan@customer.example' })).json().link
      .token;
    const paid = await pay(w.t.app, token, cardBody());
    expect(paid.statusCode, paid.body).toBe(200);
    const link = (await w.call('GET', '/payment-links', { cookie: ann }))
      .json()
      .links.find((l: { token: string }) => l.token === token);
    expect(link).toMatchObject({ status: 'Paid', transactionId: expect.stringMatching(/^\d+$/) });
    const cancel = await w.call('POST', `/payment-links/${token}/cancel`, { cookie: ann });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().error.code).toBe('session_paid');
  });
});
