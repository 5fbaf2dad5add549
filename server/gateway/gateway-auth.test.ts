/**
 * Who may call what (DESIGN.md §6), for EVERY operation of the contract, through the real SOAP
 * endpoint: no credential and a wrong key are answered at the transport (401 + `WWW-Authenticate:
 * Basic`, empty body); another merchant's valid credential acting on a merchant's id is a
 * `soap:Client` fault `forbidden` that says nothing about that merchant; the right credential gets
 * past authentication (operations not built yet answer `not_implemented`); the service credential
 * may call the hosted-payment operations only; 10 failures from one address lock it out (429).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../shared/contract/index.ts';
import type { Operation } from '../../shared/contract/model.ts';
import { mapFields } from '../../test/kit/soap/contract-values.ts';
import { sampleParams } from '../../test/kit/soap/sample-values.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { MAX_FAILURES } from './auth.ts';
import { GATEWAY_HANDLERS } from './gateway.ts';
import { accessOf } from './principal.ts';

const isPublic = (op: string) => accessOf(op) === 'public';
const isServiceOnly = (op: string) => accessOf(op) === 'service';
/** A merchant user's own session (the dashboard): a merchant's key is refused like the service's. */
const isUserOnly = (op: string) => accessOf(op) === 'user' || accessOf(op) === 'merchantUser';
const serviceMay = (op: string) => accessOf(op) === 'service' || accessOf(op) === 'merchantOrService';
import { TEST_CARDS } from './processor/simulator.ts';
import {
  call,
  card,
  type Fault,
  type GatewayWorld,
  openWorld,
  pay,
  rawCall,
  SERVICE_KEY,
} from '../../test/kit/gateway/gateway-kit.ts';

/** Every merchant id in an operation's parameters (any case, any depth) set to `id`. */
function withMerchant(value: unknown, id: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withMerchant(v, id));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k.toLowerCase() === 'merchantid' ? id : withMerchant(v, id)]),
  );
}

const NEUTRAL: Record<string, unknown> = {
  string: '',
  boolean: false,
  long: '0',
  int: 0,
  decimal: '0',
  dateTime: '2024-01-02T03:04:05',
};

/** Every parameter present, at a neutral value (empty strings, so no TransactionKey), acting on merchant `id`. */
function paramsFor(op: Operation, id: string): Record<string, unknown> {
  const neutral = mapFields(sampleParams(op, 'full'), op.params, (type) => NEUTRAL[type]);
  return withMerchant(neutral, id) as Record<string, unknown>;
}

function mentionsMerchant(op: Operation): boolean {
  return JSON.stringify(paramsFor(op, 'M')).includes('"M"');
}

const implemented = (op: Operation) =>
  GATEWAY_HANDLERS[op.name as keyof typeof GATEWAY_HANDLERS] !== undefined;

function expectPastAuth(f: Fault): void {
  expect(f.status, f.body).not.toBe(401);
  expect(f.status).not.toBe(429);
  expect(['unauthorized', 'forbidden', 'rate_limited']).not.toContain(f.errorCode);
}

function expectChallenge(f: Fault): void {
  expect(f.status).toBe(401);
  expect(f.headers['www-authenticate']).toMatch(/^Basic realm="[^"]+"/);
  expect(f.body).toBe('');
}

describe.each(databaseTargets())('gateway authentication and authorisation ($name)', (target) => {
  let w: GatewayWorld;
  let ip = 0;
  /** A fresh client address per call that may fail, so the throttle stays out of these tests. */
  const nextIp = () => `10.1.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

  beforeAll(async () => {
    w = await openWorld(target);
  });
  afterAll(() => w?.close());

  describe.each(operations.map((op) => [op.name, op] as const))('%s', (_name, op) => {
    it('without a credential: 401 with a Basic challenge (Login and ForgotPassword are public)', async () => {
      const f = await rawCall(w.app, op.name, paramsFor(op, w.a.id), null, nextIp());
      if (isPublic(op.name)) expectPastAuth(f);
      else expectChallenge(f);
    });

    it('with a wrong key, an unknown merchant, or a malformed header: 401 saying nothing', async () => {
      const params = paramsFor(op, w.a.id);
      expectChallenge(
        await rawCall(w.app, op.name, params, { merchantId: w.a.id, key: `${w.a.key}x` }, nextIp()),
      );
      expectChallenge(
        await rawCall(w.app, op.name, params, { merchantId: '999999', key: w.a.key }, nextIp()),
      );
      expectChallenge(
        await rawCall(w.app, op.name, params, { service: 'not-the-service-key-at-all-000' }, nextIp()),
      );
      // A malformed header is no credential at all (public operations stay callable).
      const malformed = await rawCall(w.app, op.name, params, { authorization: 'Digest abc' }, nextIp());
      if (isPublic(op.name)) expectPastAuth(malformed);
      else expectChallenge(malformed);
      // A Login session token that names no session is a wrong credential (public ones too).
      expectChallenge(await rawCall(w.app, op.name, params, { authorization: 'Bearer abc' }, nextIp()));
    });

    it.runIf(mentionsMerchant(op))(
      "with another merchant's credential on this merchant's id: forbidden, revealing nothing",
      async () => {
        const f = await rawCall(w.app, op.name, paramsFor(op, w.a.id), w.b.as, nextIp());
        expect(f.status).toBe(500);
        if (implemented(op)) {
          expect(f.faultCode).toBe('soap:Client');
          expect(f.errorCode).toBe('forbidden');
          for (const secret of [w.a.name, w.a.key, w.a.publicCode, 'billing@alpha'])
            expect(f.body).not.toContain(secret);
        } else {
          expect(f.errorCode).toBe('not_implemented'); // becomes `forbidden` once the operation is built
        }
      },
    );

    it(`with the right credential: ${isServiceOnly(op.name) || isUserOnly(op.name) ? 'forbidden (checkout server or a user only)' : 'past authentication'}`, async () => {
      const f = await rawCall(w.app, op.name, paramsFor(op, w.a.id), w.a.as, nextIp());
      if (isServiceOnly(op.name) || isUserOnly(op.name)) {
        expect(f.faultCode).toBe('soap:Client');
        expect(f.errorCode).toBe('forbidden');
        return;
      }
      expectPastAuth(f);
      expect(f.errorCode).not.toBe('internal');
      if (!implemented(op)) expect(f.errorCode).toBe('not_implemented');
    });

    it(`with the service credential: ${serviceMay(op.name) ? 'allowed' : 'forbidden'}`, async () => {
      const params = paramsFor(op, w.a.id);
      if (op.name === 'ProcessTransaction') {
        // Allowed only for a checkout session (HostedPaymentToken); a plain payment is refused.
        const plain = await rawCall(
          w.app,
          op.name,
          pay(w.a, card(TEST_CARDS.visa, '1.00')),
          { service: SERVICE_KEY },
          nextIp(),
        );
        expect(plain.errorCode).toBe('forbidden');
        return;
      }
      const f = await rawCall(w.app, op.name, params, { service: SERVICE_KEY }, nextIp());
      if (serviceMay(op.name) || isPublic(op.name)) expectPastAuth(f);
      else {
        expect(f.faultCode).toBe('soap:Client');
        expect(f.errorCode).toBe('forbidden');
      }
    });
  });

  it("GetHostedPaymentDetails with another merchant's credential: 'does not exist', nothing about the session", async () => {
    const created = await call(
      w.app,
      'CreateHostedPayment',
      { request: { MerchantID: w.a.id, Amount: '12.34', Email: 'jo@shop.example' } },
      w.a.as,
    );
    expect(created.Success).toBe(true);
    const theirs = await call(w.app, 'GetHostedPaymentDetails', { token: created.Token }, w.b.as);
    expect(theirs).toEqual({
      Success: false,
      Message: 'This checkout session does not exist.',
      Amount: '0.00',
    });
    const mine = await call(w.app, 'GetHostedPaymentDetails', { token: created.Token }, w.a.as);
    expect(mine).toMatchObject({ Success: true, Amount: '12.34', Email: 'jo@shop.example' });
    // The checkout server sees it too, and may pay it; it never gets a TransactionKey.
    const service = { service: SERVICE_KEY };
    expect(await call(w.app, 'GetHostedPaymentDetails', { token: created.Token }, service)).toMatchObject({
      Success: true,
    });
    const details = await call(w.app, 'GetMerchantDetails', { code: created.Token }, service);
    expect(details).toMatchObject({ MerchantId: w.a.id, BusinessName: w.a.name });
    expect(details.TransactionKey).toBeUndefined();
    const paid = await call(
      w.app,
      'ProcessTransaction',
      pay(w.a, card(TEST_CARDS.visa, '0', { MerchantID: '0', HostedPaymentToken: created.Token })),
      service,
    );
    expect(paid).toMatchObject({ ResponseCode: '00' });
  });

  it('a TransactionKey inside the message must match the credential', async () => {
    const wrong = await rawCall(
      w.app,
      'ProcessTransaction',
      pay(w.a, card(TEST_CARDS.visa, '1.00', { TransactionKey: w.b.key })),
      w.a.as,
    );
    expect(wrong.errorCode).toBe('forbidden');
    const right = await call(
      w.app,
      'ProcessTransaction',
      pay(w.a, card(TEST_CARDS.visa, '1.00', { TransactionKey: w.a.key })),
      w.a.as,
    );
    expect(right.ResponseCode).toBe('00');
  });

  it(`throttles an address after ${MAX_FAILURES} failures: 429, even with the right key, other addresses unaffected`, async () => {
    const ip = '10.9.9.9';
    const params = { merchantID: w.a.id };
    for (let i = 0; i < MAX_FAILURES; i++) {
      expectChallenge(
        await rawCall(w.app, 'Verify3DSecureMerchant', params, { merchantId: w.a.id, key: `wrong-${i}` }, ip),
      );
    }
    for (const as of [{ merchantId: w.a.id, key: 'wrong-again' }, w.a.as]) {
      const f = await rawCall(w.app, 'Verify3DSecureMerchant', params, as, ip);
      expect(f.status).toBe(429);
      expect(Number(f.headers['retry-after'])).toBeGreaterThan(800); // the rest of the 15-minute window
      expect(f.body).toBe('');
    }
    const elsewhere = await rawCall(w.app, 'Verify3DSecureMerchant', params, w.a.as, '10.9.9.10');
    expect(elsewhere.status).toBe(200);
  });

  it("a checkout relaying merchants' failures is not locked out: they count against each merchant's client", async () => {
    const checkoutHost = '10.8.8.8';
    const params = { merchantID: w.a.id };
    const relayFor = (client: string, key = SERVICE_KEY) => ({
      'x-payframe-relay': key,
      'x-payframe-client-address': client,
    });
    const attacker = relayFor('203.0.113.66');
    for (let i = 0; i < MAX_FAILURES; i++) {
      const f = await rawCall(
        w.app,
        'Verify3DSecureMerchant',
        params,
        { merchantId: w.a.id, key: `bad-${i}` },
        checkoutHost,
        attacker,
      );
      expectChallenge(f);
    }
    // The attacker's client is locked out; the checkout itself and other shoppers' merchants are not.
    expect(
      (await rawCall(w.app, 'Verify3DSecureMerchant', params, w.a.as, checkoutHost, attacker)).status,
    ).toBe(429);
    expect(
      (await rawCall(w.app, 'Verify3DSecureMerchant', params, w.a.as, checkoutHost, relayFor('198.51.100.5')))
        .status,
    ).toBe(200);
    expect(
      (await rawCall(w.app, 'Verify3DSecureMerchant', params, { service: SERVICE_KEY }, checkoutHost)).status,
    ).toBe(200);

    // A relay header without the service key is ignored: the failures count against the sender.
    const forger = '10.7.7.7';
    for (let i = 0; i < MAX_FAILURES; i++) {
      await rawCall(
        w.app,
        'Verify3DSecureMerchant',
        params,
        { merchantId: w.a.id, key: `bad-${i}` },
        forger,
        relayFor(`192.0.2.${i + 1}`, 'not-the-service-key'),
      );
    }
    expect((await rawCall(w.app, 'Verify3DSecureMerchant', params, w.a.as, forger)).status).toBe(429);
  });
});
