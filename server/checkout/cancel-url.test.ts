/**
 * A session's cancelUrl (issue 14 §1): optional, the same rules as returnUrl (the REST schema's
 * form checks, the gateway's registered-origin check), kept on the gateway's one copy of the session
 * and given to the hosted page as its "Back to {merchant}" link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import { backUrlOf } from './session-view.ts';
import {
  type CheckoutWorld,
  createSession,
  openCheckoutWorld,
  SHOP_ORIGIN,
  sessionBody,
} from '../../test/kit/checkout/checkout-world.ts';

describe.each(databaseTargets())('checkout session cancelUrl ($name)', (target) => {
  let w: CheckoutWorld;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open());
  });
  afterAll(() => w?.close());

  const post = (payload: object) =>
    w.app.inject({
      method: 'POST',
      url: '/v1/checkout-sessions',
      headers: { authorization: w.merchant.authorization },
      payload,
    });
  const widgetView = async (token: string) =>
    (await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` })).json();

  it('is kept and becomes the page’s back link', async () => {
    const token = await createSession(w, { cancelUrl: `${SHOP_ORIGIN}/cart?id=7` });
    expect((await widgetView(token)).backUrl).toBe(`${SHOP_ORIGIN}/cart?id=7`);
  });

  it('without one, the back link is the home of the returnUrl’s origin; without either, none', async () => {
    expect((await widgetView(await createSession(w))).backUrl).toBe(`${SHOP_ORIGIN}/`);
    // A session made over SOAP may have neither (REST requires a returnUrl).
    expect(backUrlOf(null, null)).toBeNull();
  });

  it.each([
    ['off the merchant’s origins', 'https://evil.example/cart'],
    ['plain http off localhost', 'http://shop.example/cart'],
    ['with credentials', 'https://user:pw@shop.example/cart'],
    ['not a URL', 'javascript:alert(1)'],
  ])('is refused %s: 400 naming cancelUrl', async (_why, cancelUrl) => {
    const res = await post(sessionBody({ cancelUrl }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields[0]).toMatchObject({ field: 'cancelUrl', code: 'invalid_cancel_url' });
  });
});
