/**
 * Card numbers in the clear, anywhere (security-requirements.md PCI-341-1, PCI-351-1, PCI-10-5;
 * attack rows 30 and 31). A whole checkout flow — a merchant creating sessions, the widget loading,
 * paying and saving a card, the one-time code by e-mail, the saved-card list, the merchant reading
 * the result, the Transaction Service answering — is run with Luhn-valid card numbers and CVV-like
 * values planted in every field a merchant, a shopper or an attacker controls: names, e-mail,
 * address, order number, headers, query strings. Then every API answer (bodies and headers), every
 * text column of every table, the message outbox (e-mails and SMS) and the log are swept with the
 * log scrubber's own detector (shared/card/card-number-in-text.ts) and for each
 * planted number.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutWorld,
  createSession,
  openCheckoutWorld,
  SERVICE_KEY,
  sessionBody,
  WIDGET_HEADERS,
} from '../../test/kit/checkout/checkout-world.ts';
import { futureExpiry } from '../../test/kit/gateway/gateway-kit.ts';
import { soapCall } from '../../test/kit/gateway/soap-call.ts';
import { scrubCardNumbers } from '../logger.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { addresses, deliveredCode } from '../../test/kit/security.ts';

/** The card paid with. */
const PAID = '4242424242424242';
const CVV = '739';
/** Planted in fields that are not card fields. */
const PLANTED = ['4111111111111111', '5555 5555 5555 4444', '3782-822463-10005', '6011000990139424'];
const EVERY = [PAID, ...PLANTED].flatMap((p) => [p, p.replace(/\D/g, '')]);

/**
 * The log scrubber's detector, over digit runs that stand on their own: inside a hex digest or a
 * base64 ciphertext 13 digits in a row happen by chance (the planted numbers are looked for as such).
 */
function holdsCardNumber(text: string): boolean {
  // A dash joining the run to a letter or digit makes it part of a longer token (a UUID request
  // id, 8-4-4-4-12 hex, holds a 20-digit run by chance when its first groups are all digits).
  const standalone =
    /(?<![0-9A-Za-z_+/=])(?<![0-9A-Za-z]-)\d(?:[ -]?\d){12,}(?![0-9A-Za-z_+/=])(?!-[0-9A-Za-z])/g;
  for (const [run] of text.matchAll(standalone)) {
    if (scrubCardNumbers(run) !== run) return true;
  }
  return false;
}

describe.each(databaseTargets())('a full flow with card numbers planted everywhere ($name)', (target) => {
  let w: CheckoutWorld;
  const nextIp = addresses('198.51');
  const answers: { what: string; res: LightMyRequestResponse }[] = [];

  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open(), { env: { LOG_LEVEL: 'trace' } });
  });
  afterAll(() => w?.close());

  async function record(what: string, res: LightMyRequestResponse | Promise<LightMyRequestResponse>) {
    const r = await res;
    answers.push({ what, res: r });
    return r;
  }

  const hostileHeaders = {
    'user-agent': `Mozilla/5.0 ${PLANTED[0]}`,
    'x-card-number': PLANTED[1]!,
    referer: `https://shop.example/cart?card=${PLANTED[2]}`,
  };

  it('rows 30/31: a full flow with card numbers in every field leaves none in answers, tables, messages or logs', async () => {
    const email = `sweep.${Date.now() % 100000}@example.com`;

    // 1. The merchant plants card numbers in every text field of a session.
    const planted = await record(
      'create session (planted)',
      w.app.inject({
        method: 'POST',
        url: `/v1/checkout-sessions?note=${encodeURIComponent(PLANTED[3]!)}`,
        headers: { authorization: w.merchant.authorization, ...hostileHeaders },
        payload: sessionBody({
          orderNumber: `PO ${PLANTED[0]}`,
          shopper: {
            email: `${PLANTED[0]!.replace(/\D/g, '')}@example.com`,
            firstName: `Ada ${PLANTED[1]}`,
            lastName: PLANTED[2],
            phone: '+1 415 555 0100',
            address: {
              line1: `${PLANTED[3]} Main St`,
              city: PLANTED[0],
              zipCode: '94105',
            },
          },
        }),
      }),
    );
    // Refused, naming each field and quoting none of the values.
    expect(planted.statusCode).toBe(400);
    const fields = (planted.json().error.fields as { field: string; code: string }[])
      .filter((f) => f.code === 'card_number')
      .map((f) => f.field)
      .sort();
    expect(fields).toEqual([
      'orderNumber',
      'shopper.address.city',
      'shopper.address.line1',
      'shopper.email',
      'shopper.firstName',
      'shopper.lastName',
    ]);

    // 2. A clean session, with the shopper's contact on it, paid with "save this card".
    const token = await createSession(w, {
      shopper: { email, firstName: 'Ada', lastName: 'Lovelace', address: { zipCode: '94105' } },
    });
    await record(
      'load',
      w.app.inject({
        method: 'GET',
        url: `/api/checkout/sessions/${token}?card=${PLANTED[0]}&cvv=${CVV}`,
        headers: hostileHeaders,
      }),
    );
    const widgetPost = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      w.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${token}/${path}?ref=${PLANTED[1]}`,
        remoteAddress: nextIp(),
        headers: { ...WIDGET_HEADERS, ...hostileHeaders, ...headers },
        payload: JSON.stringify(body),
      });
    const card = (number: string, name: string) => ({
      method: 'card',
      card: { number, expiry: futureExpiry(), cvv: CVV, name },
    });
    // A card number as the name on the card, a bad number, a decline: none is kept or echoed.
    const plantedName = await record(
      'pay, planted name',
      widgetPost('pay', card(PAID, `Ada ${PLANTED[0]}`), { 'idempotency-key': 'k-1' }),
    );
    expect(plantedName.statusCode).toBe(400);
    expect(plantedName.json().error.fields[0]).toMatchObject({ field: 'card.name', code: 'card_number' });
    await record(
      'pay, bad number',
      widgetPost('pay', card(`${PAID}1`, 'Ada Lovelace'), { 'idempotency-key': 'k-2' }),
    );
    await record(
      'pay, declined',
      widgetPost('pay', card('4000000000000002', 'Ada Lovelace'), { 'idempotency-key': 'k-3' }),
    );
    const paid = await record(
      'pay',
      widgetPost('pay', { ...card(PAID, 'Ada Lovelace'), saveCard: true }, { 'idempotency-key': 'k-4' }),
    );
    expect(paid.json().status).toBe('succeeded');
    await record(
      'pay, replayed',
      widgetPost('pay', { ...card(PAID, 'Ada Lovelace'), saveCard: true }, { 'idempotency-key': 'k-4' }),
    );
    await record(
      'load after paying',
      w.app.inject({ method: 'GET', url: `/api/checkout/sessions/${token}` }),
    );
    await record(
      'merchant read',
      w.app.inject({
        method: 'GET',
        url: `/v1/checkout-sessions/${token}`,
        headers: { authorization: w.merchant.authorization },
      }),
    );

    // 3. A later session: the saved card behind a one-time code by e-mail.
    const later = await createSession(w, { orderNumber: 'A-2002', shopper: { email, firstName: 'Ada' } });
    const laterPost = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      w.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${later}/wallet/${path}`,
        remoteAddress: nextIp(),
        headers: { ...WIDGET_HEADERS, ...headers },
        payload: JSON.stringify(body),
      });
    const sent = await record('send code', laterPost('send-code', {}));
    expect(sent.statusCode).toBe(202);
    const code = await deliveredCode(w, email);
    expect(code).toMatch(/^\d{6}$/);
    const verified = await record(
      'verify',
      laterPost('verify', { verificationId: sent.json().verificationId, code }),
    );
    const walletToken = verified.json().walletToken as string;
    const cards = await record(
      'saved cards',
      w.app.inject({
        method: 'GET',
        url: `/api/checkout/sessions/${later}/wallet/cards`,
        remoteAddress: nextIp(),
        headers: { 'x-payframe-wallet': walletToken },
      }),
    );
    expect(cards.json().cards).toHaveLength(1);

    // 4. The Transaction Service's answers about the same payment and wallet.
    const merchant = { merchantId: w.merchant.id, key: w.merchant.key };
    for (const [op, params, as] of [
      ['GetHostedPaymentDetails', { token }, merchant],
      ['GetStoredCards', { email }, { service: SERVICE_KEY }],
    ] as const) {
      const reply = await soapCall(w.app, op, params, as);
      expect(reply.status, `${op}: ${reply.fault}`).toBe(200);
      answers.push({
        what: `SOAP ${op}`,
        res: { statusCode: reply.status, body: reply.body, headers: {} } as never,
      });
    }

    // The sweep.
    await w.t.gateway.deps.notifier.flush();
    expect(answers.length).toBeGreaterThanOrEqual(14);
    // Every finding is listed before the test fails, so one run shows them all.
    const found: string[] = [];
    const check = (where: string, text: string, cvvBoundary: string) => {
      if (holdsCardNumber(text) || EVERY.some((pan) => text.includes(pan))) {
        found.push(`${where}: a card number in ${JSON.stringify(text.slice(0, 200))}`);
      }
      if (new RegExp(`(?<!${cvvBoundary})${CVV}(?!${cvvBoundary})`).test(text)) {
        found.push(`${where}: the CVV in ${JSON.stringify(text.slice(0, 200))}`);
      }
    };
    for (const { what, res } of answers) {
      check(`answer to ${what}`, `${JSON.stringify(res.headers)}\n${res.body}`, '[0-9A-Za-z_-]');
    }

    const { rows: columns } = await w.db.query<{ table_name: string; column_name: string }>(
      `select c.table_name, c.column_name from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
       where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
         and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb')`,
    );
    expect(columns.length).toBeGreaterThan(30);
    let values = 0;
    for (const { table_name, column_name } of columns) {
      const { rows } = await w.db.query<{ v: string | null }>(
        `select "${column_name}"::text as v from "${table_name}" where "${column_name}" is not null`,
      );
      for (const { v } of rows) {
        values += 1;
        // Base64 and hex values (ciphertexts, hashes) hold digit runs by chance: a wider boundary.
        check(`column ${table_name}.${column_name}`, v ?? '', '[0-9A-Za-z_+/=-]');
      }
    }
    expect(values).toBeGreaterThan(50);
    // The outbox held the code e-mail: messages were swept above, as rows of notification_outbox.
    expect(columns.some((c) => c.table_name === 'notification_outbox')).toBe(true);

    const log = w.t.logLines.join('\n');
    expect(log.length).toBeGreaterThan(1000);
    for (const pan of EVERY) if (log.includes(pan)) found.push(`the log: ${pan}`);
    if (/"cvv2?"\s*:\s*"\d/i.test(log)) found.push('the log: a CVV value');
    expect(found).toEqual([]);
  });
});
