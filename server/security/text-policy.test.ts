/**
 * One text policy for every displayed field, on every path (issue 13 §4; shared/text): control,
 * bidi and invisible characters are refused — the merchant REST API, the pay API, SOAP 1.1 and 1.2,
 * HTTP POST — naming the field and never quoting it; text is stored in NFC; a merchant's display
 * name also refuses words that mix scripts; the hosted page's session answer carries the merchant's
 * registered website, whose host the page shows beside the name. On PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeSoapRequest } from '../soap/codec/messages.ts';
import { findOperation } from '../../shared/contract/index.ts';
import { basic, NS, request, soapCall } from '../../test/kit/gateway/soap-call.ts';
import { futureExpiry } from '../../test/kit/gateway/gateway-kit.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  cardBody,
  type CheckoutWorld,
  createSession,
  openCheckoutWorld,
  pay,
  sessionBody,
  SHOP_ORIGIN,
} from '../../test/kit/checkout/checkout-world.ts';

const u = (code: number) => String.fromCodePoint(code);

/** One character of each refused class, with the code a field error carries. */
const REFUSED: readonly [string, string, string][] = [
  ['a tab', u(0x09), 'control_characters'],
  ['a line break', u(0x0a), 'control_characters'],
  ['a C1 control (NEL)', u(0x85), 'control_characters'],
  ['a right-to-left override', u(0x202e), 'bidi_characters'],
  ['a left-to-right mark', u(0x200e), 'bidi_characters'],
  ['an Arabic letter mark', u(0x61c), 'bidi_characters'],
  ['a right-to-left isolate', u(0x2067), 'bidi_characters'],
  ['a zero-width space', u(0x200b), 'invisible_characters'],
  ['a zero-width joiner', u(0x200d), 'invisible_characters'],
  ['a byte-order mark', u(0xfeff), 'invisible_characters'],
  ['a soft hyphen', u(0xad), 'invisible_characters'],
  ['a line separator', u(0x2028), 'invisible_characters'],
  ['a Hangul filler', u(0x3164), 'invisible_characters'],
];

describe.each(databaseTargets())('one text policy on every path ($name)', (target) => {
  let w: CheckoutWorld;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open());
  });
  afterAll(() => w?.close());

  const as = () => ({ merchantId: w.merchant.id, key: w.merchant.key });

  it.each(REFUSED)(
    'merchant REST: an order number or name with %s is 400, naming the field',
    async (_n, ch, code) => {
      for (const [field, body] of [
        ['orderNumber', { orderNumber: `A-${ch}1001` }],
        ['shopper.lastName', { shopper: { email: 'ada@example.com', lastName: `Love${ch}lace` } }],
      ] as const) {
        const res = await w.app.inject({
          method: 'POST',
          url: '/v1/checkout-sessions',
          headers: { authorization: w.merchant.authorization },
          payload: sessionBody(body),
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.fields).toContainEqual(expect.objectContaining({ field, code }));
        expect(res.body).not.toContain(ch);
      }
    },
  );

  it.each(REFUSED)(
    "pay API: the cardholder's name with %s is 400; nothing is charged",
    async (_n, ch, code) => {
      const token = await createSession(w);
      const body = cardBody();
      const res = await pay(w.app, token, { ...body, card: { ...body.card, name: `Ada${ch} Lovelace` } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toContainEqual(expect.objectContaining({ field: 'card.name', code }));
    },
  );

  it.each(REFUSED)(
    'SOAP 1.1 CreateHostedPayment and ProcessTransaction with %s: a fault naming the element, nothing stored',
    async (_n, ch) => {
      const before = await w.db.query<{ n: string }>('select count(*) as n from checkout_sessions');
      const created = await soapCall(
        w.app,
        'CreateHostedPayment',
        {
          request: {
            MerchantID: w.merchant.id,
            Amount: '10.00',
            OrderNumber: `A${ch}1`,
            ReturnUrl: `${SHOP_ORIGIN}/done`,
          },
        },
        as(),
      );
      expect(created.status).toBe(500);
      expect(created.fault).toContain("Element 'request/OrderNumber' must not contain");
      expect(created.body).not.toContain(ch);
      const after = await w.db.query<{ n: string }>('select count(*) as n from checkout_sessions');
      expect(after.rows[0]!.n).toBe(before.rows[0]!.n);

      const sale = await soapCall(
        w.app,
        'ProcessTransaction',
        {
          request: request({
            MerchantID: w.merchant.id,
            CardNumber: '4242424242424242',
            ExpirationDate: futureExpiry(),
            Amount: '1.00',
            CustomValue1: `note${ch}`,
          }),
        },
        as(),
      );
      expect(sale.status).toBe(500);
      expect(sale.fault).toContain("Element 'request/CustomValue1' must not contain");
    },
  );

  it('SOAP 1.2 and HTTP POST meet the same rule', async () => {
    const op = findOperation('CreateHostedPayment')!;
    const soap12 = await w.app.inject({
      method: 'POST',
      url: '/TransactionService.asmx',
      headers: { 'content-type': 'application/soap+xml; charset=utf-8', ...basic(as()) },
      payload: encodeSoapRequest(
        op,
        { request: { MerchantID: w.merchant.id, Amount: '10.00', FirstName: `Ada${u(0x202e)}` } },
        NS,
        '1.2',
      ),
    });
    expect(soap12.statusCode).toBe(500);
    expect(soap12.body).toContain(
      "Element 'request/FirstName' must not contain characters that change the text direction.",
    );

    const token = await createSession(w);
    const post = await w.app.inject({
      method: 'POST',
      url: '/TransactionService.asmx/CancelHostedPayment',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(as()) },
      payload: `token=${token}${encodeURIComponent(u(0x200b))}`,
    });
    expect(post.statusCode).toBe(500);
    // ASMX's text/plain errors are HTML-encoded.
    expect(post.body).toContain('Element &#39;token&#39; must not contain invisible characters.');
    const { rows } = await w.db.query<{ status: string }>(
      'select status from checkout_sessions where token = $1',
      [token],
    );
    expect(rows[0]!.status).toBe('open');
  });

  it('text is stored in NFC, whichever path brought it', async () => {
    const decomposed = 'Cafe\u0301 Nord';
    const composed = 'Caf\u00e9 Nord';
    const rest = await w.app.inject({
      method: 'POST',
      url: '/v1/checkout-sessions',
      headers: { authorization: w.merchant.authorization },
      payload: sessionBody({ orderNumber: decomposed }),
    });
    expect(rest.statusCode).toBe(201);
    const soap = await soapCall(
      w.app,
      'CreateHostedPayment',
      { request: { MerchantID: w.merchant.id, Amount: '10.00', OrderNumber: decomposed } },
      as(),
    );
    const tokens = [rest.json().token, (soap.result as { Token: string }).Token];
    const { rows } = await w.db.query<{ order_number: string }>(
      'select order_number from checkout_sessions where token = any($1)',
      [tokens],
    );
    expect(rows.map((r) => r.order_number)).toEqual([composed, composed]);
  });

  it('a merchant display name: the text policy and no mixed-script word; its website is kept as parsed and reaches the page', async () => {
    const merchants = w.t.gateway.deps.merchants;
    const refused = async (input: Parameters<typeof merchants.create>[1]) => {
      const err = await merchants.create(w.db, input).catch((e: unknown) => e);
      return (err as { fields?: { field: string; code: string }[] }).fields?.[0];
    };
    expect(await refused({ name: 'P\u0430ypal' })).toEqual(
      expect.objectContaining({ field: 'name', code: 'mixed_script' }),
    );
    expect(await refused({ name: 'Apple\u202e' })).toEqual(
      expect.objectContaining({ code: 'bidi_characters' }),
    );
    expect(await refused({ name: 'Good Shop', businessName: 'G\u043eogle Store' })).toEqual(
      expect.objectContaining({ field: 'businessName', code: 'mixed_script' }),
    );
    expect(await refused({ name: 'Good Shop', city: 'Pa\u200bris' })).toEqual(
      expect.objectContaining({ field: 'city', code: 'invisible_characters' }),
    );
    expect(await refused({ name: 'Good Shop', website: 'javascript:alert(1)' })).toEqual(
      expect.objectContaining({ field: 'website' }),
    );
    // Scripts side by side, each word its own: accepted.
    const { merchant } = await merchants.create(w.db, {
      name: 'Café Москва',
      website: 'https://bücher.example/about',
      origins: [SHOP_ORIGIN],
    });
    expect(merchant.website).toBe('https://xn--bcher-kva.example/about');
    const { merchant: changed } = {
      merchant: await merchants.update(w.db, merchant.id, { website: 'https://shop.example' }),
    };
    expect(changed?.website).toBe('https://shop.example/');
    await expect(
      merchants.update(w.db, merchant.id, { businessName: 'Micr\u03bfsoft' }),
    ).rejects.toMatchObject({
      fields: [expect.objectContaining({ code: 'mixed_script' })],
    });
  });

  it("the hosted page's session answer carries the registered website beside the name", async () => {
    await w.t.gateway.deps.merchants.update(w.db, w.merchant.id, { website: 'https://alpha.example/shop' });
    const token = await createSession(w);
    const res = await w.app.inject(`/api/checkout/sessions/${token}`);
    expect(res.json().merchant).toMatchObject({
      name: 'Alpha Outfitters',
      website: 'https://alpha.example/shop',
    });
  });
});
