/**
 * PCI-331-1 / PCI-351-1 / PCI-10-5, issue 13 §1: card numbers never outside the vault, on any path.
 *
 * 1. Payments (approved and declined, a CVV with each) put card data where it belongs: the card
 *    fields, which the vault encrypts. A checkout session with a webhook is paid through the
 *    widget's API and a card saved, and a one-time code e-mailed: webhook bodies and the outbox
 *    have rows to look at.
 * 2. Then every free-text element of every operation is filled with a card number — every brand,
 *    many spellings (test/kit/card/card-spellings.ts) — and sent over SOAP 1.1, SOAP
 *    1.2, HTTP GET and POST (where the operation has them) and in-process: each is refused, naming
 *    the element and quoting nothing. The checkout API's text fields get the same.
 * 3. Every text column of every table, the log, the outbox, the webhook bodies and (PGlite) every
 *    file of the database's data directory, its WAL included, are searched for each number sent,
 *    digits only and as spelled, and read with the detector: zero hits. A marker stored on purpose
 *    is found in each place that can hold it, so the search can see what is there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { totpCode } from './users/totp.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCardNumbers } from '../../shared/card/card-number-in-text.ts';
import { cardsOfEveryBrand, spellings } from '../../test/kit/card/card-spellings.ts';
import {
  type CheckoutWorld,
  cardBody,
  createSession,
  openCheckoutWorld,
  pay,
  SERVICE_KEY,
  SHOP_ORIGIN,
  sessionBody,
  WIDGET_HEADERS,
} from '../../test/kit/checkout/checkout-world.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite.ts';
import { databaseTargets, tempDir } from '../../test/kit/databases.ts';
import { futureExpiry } from '../../test/kit/gateway/gateway-kit.ts';
import { request, soapCall } from '../../test/kit/gateway/soap-call.ts';
import {
  type Answer,
  bindingsOf,
  callThrough,
  type Callers,
  textElements,
} from '../../test/kit/gateway/text-elements.ts';
import { createUser } from './users/user-store.ts';

const PASSWORD = 'correct horse 42 battery';

const PAID = [
  '4242424242424242',
  '4000000000000002',
  '4000000000009995',
  '378282246310005',
  '4000000000000127',
];
// CVVs unlikely to occur by chance in ids or amounts; checked as whole values.
const CVV3 = '947';
const CVV4 = '8316';
const MARKER = `RT-MARKER-${Date.now().toString(36)}`;

const CARDS = cardsOfEveryBrand(29).map((c) => c.number);
const ELEMENT_COUNT = textElements().length;

/** Every value sent, as spelled, and every card's digits. */
const planted = new Set<string>();
const digits = new Set<string>(PAID);

/** The spelling for the n-th value sent. */
function plant(n: number): string {
  const card = CARDS[(n * 7) % CARDS.length]!;
  const all = spellings(card);
  const value = all[n % all.length]!;
  planted.add(value);
  digits.add(card);
  return value;
}

/**
 * Where `text` holds a card number sent: a planted value as spelled, a card's digits, or anything
 * the detector reads as a card number standing on its own (a digit run inside a hex digest or a
 * base64 ciphertext, glued to letters, is chance).
 */
function hits(text: string): string[] {
  const found: string[] = [];
  for (const d of digits) if (text.includes(d)) found.push(d);
  for (const p of planted) if (p.length >= 14 && text.includes(p)) found.push(JSON.stringify(p));
  for (const m of findCardNumbers(text)) {
    const before = text[m.start - 1] ?? ' ';
    const after = text[m.end] ?? ' ';
    if (!/[0-9A-Za-z+/=_-]/.test(before) && !/[0-9A-Za-z+/=_-]/.test(after)) {
      found.push(`detector: ${JSON.stringify(text.slice(m.start, m.end))}`);
    }
  }
  return found;
}

const PAGE = 8192;
const ZERO_PAGE = Buffer.alloc(PAGE);

/** A file's bytes without its all-zero pages (WAL segments are preallocated with zeros). */
function writtenBytes(file: string): Buffer {
  const buf = fs.readFileSync(file);
  const pages: Buffer[] = [];
  for (let at = 0; at < buf.length; at += PAGE) {
    const page = buf.subarray(at, at + PAGE);
    if (page.length !== PAGE || !page.equals(ZERO_PAGE)) pages.push(page);
  }
  return Buffer.concat(pages);
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : e.isFile() ? [p] : [];
  });
}

for (const target of databaseTargets()) {
  describe(`card data at rest on ${target.name}`, () => {
    let w: CheckoutWorld;
    let dataDir: string | null = null;
    let closed = false;
    const answers: Array<{ what: string; answer: Answer }> = [];

    beforeAll(async () => {
      let db: Database;
      if (target.name === 'pglite') {
        // A data directory of our own, to read its files (the WAL among them) at the end.
        dataDir = tempDir();
        db = await openPglite(dataDir);
        await migrate(db);
      } else {
        db = await target.open();
      }
      w = await openCheckoutWorld(db, { env: { LOG_LEVEL: 'trace' } }); // every line the app can write
      const merchant = { merchantId: w.merchant.id, key: w.merchant.key };
      for (const pan of PAID) {
        const reply = await soapCall(
          w.app,
          'ProcessTransaction',
          {
            request: request({
              MerchantID: w.merchant.id,
              Amount: '12.34',
              CardNumber: pan,
              ExpirationDate: futureExpiry(),
              CVV2: pan.startsWith('37') ? CVV4 : CVV3,
              CardName: 'Card Holder',
              CustomValue1: MARKER,
              CreateToken: true,
            }),
          },
          merchant,
        );
        expect(reply.status).toBe(200);
      }
      // A paid session with a webhook, a saved card, and a one-time code by e-mail.
      const email = `rest.${Date.now() % 100000}@example.com`;
      const shopper = { email, firstName: 'Ada', lastName: MARKER, address: { zipCode: '94105' } };
      const token = await createSession(w, {
        orderNumber: MARKER,
        shopper,
        webhookUrl: 'http://localhost:4000/hooks',
      });
      const paid = await pay(w.app, token, cardBody(PAID[0], { saveCard: true }));
      expect(paid.json().status).toBe('succeeded');
      const later = await createSession(w, { shopper });
      const sent = await w.app.inject({
        method: 'POST',
        url: `/api/checkout/sessions/${later}/wallet/send-code`,
        headers: WIDGET_HEADERS,
        payload: '{}',
      });
      expect(sent.statusCode).toBe(202);
      await w.t.gateway.deps.notifier.flush();
    });
    afterAll(async () => {
      if (!closed) await w?.close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it(`refuses a card number in each of the ${ELEMENT_COUNT} text elements of every operation, over every binding, naming the element`, async () => {
      // Messages otherwise valid: without the rule, each would be stored.
      const id = w.merchant.id;
      const card = { CardNumber: '4242424242424242', ExpirationDate: futureExpiry() };
      const open = await createSession(w);
      const elements = textElements({
        types: {
          Request: { MerchantID: id, Amount: '12.34', ...card },
          HostedPaymentRequest: {
            MerchantID: id,
            Amount: '10.00',
            Currency: 'USD',
            ReturnUrl: `${SHOP_ORIGIN}/done`,
          },
          TokenRequest: { MerchantID: id, ...card, CardEmail: 'ada@example.com' },
          InvoiceRequest: { MerchantID: id },
          InvoiceDetails: { InvoiceAmount: '5.00' },
          PaymentProfileRequest: {
            MerchantId: id,
            CustomerId: '1',
            CardNumber: '4242424242424242',
            CardExpirationMonth: 12,
            CardExpirationYear: new Date().getUTCFullYear() + 2,
          },
          CustomerProfileRequest: { MerchantId: id, CustomerId: '1' },
          CaptureRequest: { MerchantID: id },
          CardInfoRequest: { MerchantID: id },
        },
        params: { merchantID: id, merchantId: id, token: open, email: 'ada@example.com' },
      });
      expect(elements.length).toBe(ELEMENT_COUNT);
      // A merchant user signed in with its password, for the operations of its own session.
      await createUser(w.db, { merchantId: w.merchant.id, username: 'text.user', password: PASSWORD });
      const login = await soapCall(
        w.app,
        'Login',
        { loginRequest: { UserName: 'text.user', Password: PASSWORD, ProfileInfo: false } },
        null,
      );
      // An Owner with its second factor verified, for the operations a TransactionKey may not call.
      await createUser(w.db, { merchantId: w.merchant.id, username: 'text.owner', password: PASSWORD });
      const ownerLogin = await soapCall(
        w.app,
        'Login',
        { loginRequest: { UserName: 'text.owner', Password: PASSWORD, ProfileInfo: false } },
        null,
      );
      const ownerToken = (ownerLogin.result as { Data: string }).Data;
      const setup = (await soapCall(w.app, 'BeginSecondFactorEnrolment', {}, { bearer: ownerToken }))
        .result as {
        SetupKey: string;
      };
      await soapCall(
        w.app,
        'VerifySecondFactor',
        { code: totpCode(setup.SetupKey, new Date()) },
        { bearer: ownerToken },
      );
      const callers: Callers = {
        merchant: { merchantId: w.merchant.id, key: w.merchant.key },
        serviceKey: SERVICE_KEY,
        userToken: (login.result as { Data: string }).Data,
        ownerToken,
      };
      const problems: string[] = [];
      let n = 0;
      for (const element of elements) {
        for (const binding of bindingsOf(element.operation)) {
          const value = plant(n++);
          const answer = await callThrough(
            w.app,
            w.t.gateway.service,
            w.app.log,
            binding,
            element.operation,
            element.params(value),
            callers,
          );
          const what = `${element.operation.name} ${element.path} over ${binding}`;
          answers.push({ what, answer });
          // A GET for an operation that changes state may be refused before anything is read.
          const refusedByMethod = binding === 'httpGet' && answer.status === 405;
          const named =
            answer.text.includes(element.path) && answer.text.includes('must not contain a card number');
          if (!refusedByMethod && (!named || answer.status === 200)) {
            problems.push(`${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
          }
        }
      }
      expect(problems).toEqual([]);
      expect(n).toBeGreaterThan(300);
    });

    it('refuses them in the checkout API’s text fields, naming each field', async () => {
      for (let i = 0; i < 12; i++) {
        const value = plant(10_000 + i);
        const res = await w.app.inject({
          method: 'POST',
          url: '/v1/checkout-sessions',
          headers: { authorization: w.merchant.authorization },
          payload: sessionBody({
            orderNumber: value.slice(0, 64),
            shopper: { firstName: value.slice(0, 100) },
          }),
        });
        answers.push({
          what: `REST create ${JSON.stringify(value)}`,
          answer: { status: res.statusCode, text: res.body },
        });
        expect(res.statusCode, JSON.stringify(value)).toBe(400);
        const codes = (res.json().error.fields as Array<{ field: string; code: string }>).map(
          (f) => `${f.field}:${f.code}`,
        );
        expect(codes).toContain('orderNumber:card_number');
      }
    });

    it('answers quote none of them', () => {
      expect(answers.length).toBeGreaterThan(300);
      const found = answers.flatMap(({ what, answer }) => hits(answer.text).map((h) => `${what}: ${h}`));
      expect(found).toEqual([]);
    });

    it('no table holds a card number, its digits, or a CVV value; the outbox and webhook bodies included', async () => {
      const { rows: columns } = await w.db.query<{ table_name: string; column_name: string }>(
        `select c.table_name, c.column_name from information_schema.columns c
         join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
         where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
           and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb')`,
      );
      expect(new Set(columns.map((c) => c.table_name)).size).toBeGreaterThan(20);
      const found: string[] = [];
      let values = 0;
      let markers = 0;
      for (const { table_name, column_name } of columns) {
        const { rows } = await w.db.query<{ v: string }>(
          `select "${column_name}"::text as v from "${table_name}" where "${column_name}" is not null`,
        );
        for (const { v } of rows) {
          values++;
          if (v.includes(MARKER)) markers++;
          for (const h of hits(v)) found.push(`${table_name}.${column_name}: ${h}`);
          if (v === CVV3 || v === CVV4 || /"(cvv|cvv2|CVV2|cvc)"/.test(v))
            found.push(`${table_name}.${column_name}: a CVV`);
        }
      }
      expect(found).toEqual([]);
      expect(values).toBeGreaterThan(200);
      expect(markers).toBeGreaterThan(5); // what was stored on purpose is seen
      const outbox = await w.db.query<{ n: number }>('select count(*)::int as n from notification_outbox');
      const hooks = await w.db.query<{ payload: string }>('select payload from checkout_webhook_events');
      expect(outbox.rows[0]!.n).toBeGreaterThan(0);
      expect(hooks.rows.length).toBeGreaterThan(0);
      expect(hooks.rows.some((r) => r.payload.includes(MARKER))).toBe(true);
    });

    it('no log line holds a card number or a CVV', () => {
      const log = w.t.logLines.join('');
      expect(log.length).toBeGreaterThan(10_000);
      expect(hits(log)).toEqual([]);
      expect(log).not.toMatch(new RegExp(`[":=]\\s*"?(${CVV3}|${CVV4})\\b`));
    });

    if (target.name === 'pglite') {
      it('no file of the PGlite data directory, its WAL included, holds one', async () => {
        await w.close(); // written out and closed, as a copy of the directory would be
        closed = true;
        const files = filesUnder(dataDir!);
        expect(files.some((f) => f.includes(`${path.sep}pg_wal${path.sep}`))).toBe(true);
        const needles = [...digits, ...[...planted].filter((p) => p.length >= 14)].map((s) =>
          Buffer.from(s, 'utf8'),
        );
        const found: string[] = [];
        let markerSeen = false;
        let bytes = 0;
        for (const file of files) {
          const buf = writtenBytes(file);
          bytes += buf.length;
          if (buf.includes(MARKER)) markerSeen = true;
          for (const needle of needles)
            if (buf.includes(needle)) found.push(`${path.relative(dataDir!, file)}: ${needle.toString()}`);
        }
        expect(found).toEqual([]);
        expect(bytes).toBeGreaterThan(1_000_000);
        expect(markerSeen).toBe(true);
      });
    }
  });
}
