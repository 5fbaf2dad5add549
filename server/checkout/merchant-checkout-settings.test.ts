/**
 * The merchant's checkout settings (issue 14 §9, §3) through the real app on every database target,
 * in both wirings (the gateway in process, and a gateway app of its own reached over real SOAP, as
 * in remote-port.test.ts): their defaults, a change by the merchant store (what `payframe merchant
 * update` calls), GetCheckoutSession's ReturnMode and NameOnCardRequired and the widget's session
 * built from them, and the name on the card reaching the transaction — or its absence refused,
 * nothing charged, when the merchant asks for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/kit/app.ts';
import {
  addMerchant,
  approvedTransactions,
  buildCheckoutApp,
  type CheckoutWorld,
  cardBody,
  createSession,
  pay,
  type WorldMerchant,
  openRemoteCheckoutWorld,
  wiringCases,
} from '../../test/kit/checkout/checkout-world.ts';

const cases = wiringCases();

describe.each(cases)('merchant checkout settings ($name)', ({ target, wiring }) => {
  let w: CheckoutWorld;
  /** The app that owns the gateway (and so its merchants). */
  let gatewayApp: TestApp;
  let soapCalls: string[] = [];
  let n = 0;

  beforeAll(async () => {
    const db = await target.open();
    if (wiring === 'in process') {
      const { t, checkout } = await buildCheckoutApp(db);
      gatewayApp = t;
      w = {
        db,
        t,
        app: t.app,
        checkout,
        merchant: await addMerchant(t, db, 'Setting Shop'),
        close: () => t.close(),
      };
      return;
    }
    const remote = await openRemoteCheckoutWorld(db, 'Remote Setting Shop');
    gatewayApp = remote.gateway;
    soapCalls = remote.soapCalls;
    w = remote;
  });
  afterAll(async () => {
    await w?.close(); // closes the database (and the gateway's app) too
  });

  const newMerchant = () => addMerchant(gatewayApp, w.db, `Setting Shop ${++n}`);
  const store = () => gatewayApp.gateway.deps.merchants;
  const origin = () => ({ requestId: 'settings-test', remoteAddress: '127.0.0.1', log: w.app.log });
  /** GetCheckoutSession as the checkout server asks it, through this wiring's port. */
  const detail = (token: string) => {
    const { port, contexts } = w.checkout.deps;
    return port.GetCheckoutSession({ token }, contexts.service(origin()));
  };
  const widgetView = async (token: string) => {
    const res = await w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` });
    expect(res.statusCode).toBe(200);
    return res.json() as {
      returnMode: string;
      nameOnCardRequired: boolean;
      status: string;
      postalCode?: string;
      merchant: Record<string, unknown>;
    };
  };
  const nameOnCardOf = async (token: string) => {
    const { rows } = await w.db.query<{ name: string | null }>(
      `select t.name_on_card as name from transactions t join checkout_sessions s on s.id = t.checkout_session_id
       where s.token = $1 and t.status = 'approved'`,
      [token],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!.name;
  };
  const setSettings = async (
    m: WorldMerchant,
    changes: Parameters<ReturnType<typeof store>['update']>[2],
  ) => {
    const updated = await store().update(w.db, m.id, changes);
    expect(updated).not.toBeNull();
    return updated!;
  };

  it('defaults: return at once, no name on the card — in the store, GetCheckoutSession and the widget', async () => {
    const m = await newMerchant();
    const stored = await store().get(w.db, m.id);
    expect(stored).toMatchObject({ returnMode: 'immediate', nameOnCardRequired: false });
    const token = await createSession(w, {}, m);
    expect(await detail(token)).toMatchObject({ ReturnMode: 'Immediate', NameOnCardRequired: false });
    expect(await widgetView(token)).toMatchObject({ returnMode: 'immediate', nameOnCardRequired: false });
    if (wiring === 'over SOAP') expect(soapCalls).toContain('GetCheckoutSession');
  });

  it('a change is read by the next session view; a mode the store does not know is refused', async () => {
    const m = await newMerchant();
    const token = await createSession(w, {}, m);
    const updated = await setSettings(m, { returnMode: 'confirmation', nameOnCardRequired: true });
    expect(updated).toMatchObject({ returnMode: 'confirmation', nameOnCardRequired: true });
    expect(await detail(token)).toMatchObject({ ReturnMode: 'Confirmation', NameOnCardRequired: true });
    expect(await widgetView(token)).toMatchObject({ returnMode: 'confirmation', nameOnCardRequired: true });

    // One setting changes alone; the other stays.
    await setSettings(m, { nameOnCardRequired: false });
    expect(await detail(token)).toMatchObject({ ReturnMode: 'Confirmation', NameOnCardRequired: false });
    await setSettings(m, { returnMode: 'immediate' });
    expect(await widgetView(token)).toMatchObject({ returnMode: 'immediate', nameOnCardRequired: false });

    await expect(
      store().update(w.db, m.id, { returnMode: 'countdown' as unknown as 'immediate' }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
    expect((await store().get(w.db, m.id))?.returnMode).toBe('immediate');
  });

  it('the name on the card is asked: without it the payment is refused on card.name, nothing charged; with it, the transaction has it', async () => {
    const m = await newMerchant();
    await setSettings(m, { nameOnCardRequired: true });
    const token = await createSession(w, {}, m);
    const { name: _name, ...cardWithoutName } = cardBody().card;
    const refused = await pay(w.app, token, { method: 'card', card: cardWithoutName });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.fields).toEqual([
      expect.objectContaining({ field: 'card.name', code: 'required' }),
    ]);
    expect(await approvedTransactions(w.db, token)).toBe(0);
    expect((await widgetView(token)).status).toBe('open');

    const paid = await pay(w.app, token, {
      method: 'card',
      card: { ...cardWithoutName, name: 'Grace Hopper' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().status).toBe('succeeded');
    expect(await nameOnCardOf(token)).toBe('Grace Hopper');
  });

  const avsOf = async (token: string) => {
    const { rows } = await w.db.query<{ avs: string | null }>(
      `select t.avs_code as avs from transactions t join checkout_sessions s on s.id = t.checkout_session_id
       where s.token = $1 and t.status = 'approved'`,
      [token],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!.avs;
  };

  it('the postal code: not asked by default (no AVS result: the address was not checked); asked, the processor checks it', async () => {
    const m = await newMerchant();
    const token = await createSession(w, {}, m);
    expect(await detail(token)).toMatchObject({ PostalCodeRequired: false });
    expect(await widgetView(token)).toMatchObject({ postalCode: 'hidden' });
    // A postal code sent anyway does not reach the processor.
    const paid = await pay(w.app, token, { ...cardBody(), billing: { zip: '00000' } });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await avsOf(token)).toBeNull();

    await setSettings(m, { postalCodeRequired: true, termsUrl: 'https://shop.example/terms' });
    const asked = await createSession(w, {}, m);
    expect(await detail(asked)).toMatchObject({
      PostalCodeRequired: true,
      TermsUrl: 'https://shop.example/terms',
    });
    expect(await widgetView(asked)).toMatchObject({
      postalCode: 'required',
      merchant: { termsUrl: 'https://shop.example/terms', privacyUrl: null },
    });
    const checked = await pay(w.app, asked, { ...cardBody(), billing: { zip: '00000' } });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(await avsOf(asked)).toBe('N'); // the simulator's no-match postal code
  });

  it('not asked (the default): a card pays without a name; a name sent anyway is kept', async () => {
    const m = await newMerchant();
    const { name: _name, ...cardWithoutName } = cardBody().card;
    const bare = await createSession(w, {}, m);
    const res = await pay(w.app, bare, { method: 'card', card: cardWithoutName });
    expect(res.statusCode, res.body).toBe(200);
    expect(await nameOnCardOf(bare)).toBeNull();

    const named = await createSession(w, {}, m);
    expect((await pay(w.app, named, cardBody())).statusCode).toBe(200);
    expect(await nameOnCardOf(named)).toBe('Ada Lovelace');
  });
});
