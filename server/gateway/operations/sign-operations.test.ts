/**
 * SignForMerchant (sign-operations.ts): the gateway signs under a merchant's TransactionKey for the
 * checkout server, and only for it. Through the real SOAP endpoint on every database target; then
 * the checkout's port signer (signer.ts) over the in-process port, as the split wiring uses it over
 * SOAP (split-wiring.test.ts).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portSigner } from '../../checkout/signer.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import {
  call,
  type GatewayWorld,
  openWorld,
  rawCall,
  SERVICE_KEY,
} from '../../../test/kit/gateway/gateway-kit.ts';
import { MAX_SIGNED_MESSAGE, NO_MERCHANT } from './sign-operations.ts';

const SERVICE = { service: SERVICE_KEY } as const;
const hmac = (key: string, text: string) =>
  crypto.createHmac('sha256', key).update(text, 'utf8').digest('hex');

describe.each(databaseTargets())('SignForMerchant ($name)', (target) => {
  let w: GatewayWorld;
  beforeAll(async () => {
    w = await openWorld(target);
  });
  afterAll(() => w?.close());

  it("signs a message under the merchant's own key, line feeds and non-ASCII text included", async () => {
    // A redirect's canonical string (redirect.ts) and a webhook's `<t>.<body>`.
    for (const message of [
      'status=succeeded\ntransactionId=100042\norderNumber=A-1001\namount=24.99\ntimestamp=1767225600',
      '1767225600.{"id":"evt_1","type":"payment.succeeded","data":{"note":"café <&> ✓\\r\\n"}}',
      'carriage\r\nreturn',
      '',
    ]) {
      const r = await call(w.app, 'SignForMerchant', { merchantID: w.a.id, message }, SERVICE);
      expect(r).toEqual({ Success: true, Message: 'Signed.', Signature: hmac(w.a.key, message) });
    }
    const b = await call(w.app, 'SignForMerchant', { merchantID: w.b.id, message: 'x' }, SERVICE);
    expect(b.Signature).toBe(hmac(w.b.key, 'x'));
    expect(b.Signature).not.toBe(hmac(w.a.key, 'x'));
  });

  it('refuses an unknown merchant with the not_found fault; Success=false for a missing or too long message', async () => {
    // A typed refusal: the caller reads the fault's ErrorCode, never the text.
    const unknown = await rawCall(
      w.app,
      'SignForMerchant',
      { merchantID: '999999999', message: 'x' },
      SERVICE,
    );
    expect(unknown).toMatchObject({ status: 500, errorCode: 'not_found', message: NO_MERCHANT });
    expect(await call(w.app, 'SignForMerchant', { merchantID: w.a.id }, SERVICE)).toEqual({
      Success: false,
      Message: 'Give the message to sign.',
    });
    const long = await call(
      w.app,
      'SignForMerchant',
      { merchantID: w.a.id, message: 'x'.repeat(MAX_SIGNED_MESSAGE + 1) },
      SERVICE,
    );
    expect(long).toMatchObject({ Success: false });
    expect(long.Signature).toBeUndefined();
  });

  it('is for the service credential only: a merchant is forbidden, even for itself; nobody is 401', async () => {
    const own = await rawCall(w.app, 'SignForMerchant', { merchantID: w.a.id, message: 'x' }, w.a.as);
    expect(own).toMatchObject({ status: 500, errorCode: 'forbidden' });
    expect(own.body).not.toContain(hmac(w.a.key, 'x'));
    const other = await rawCall(w.app, 'SignForMerchant', { merchantID: w.b.id, message: 'x' }, w.a.as);
    expect(other).toMatchObject({ status: 500, errorCode: 'forbidden' });
    const anonymous = await rawCall(w.app, 'SignForMerchant', { merchantID: w.a.id, message: 'x' }, null);
    expect(anonymous.status).toBe(401);
  });

  it("the checkout's port signer signs through it and reports an unknown merchant as not_found", async () => {
    const signer = portSigner(w.t.gateway.service, w.app.log);
    expect(await signer.sign(w.a.id, 'hello')).toBe(hmac(w.a.key, 'hello'));
    await expect(signer.sign('999999999', 'hello')).rejects.toMatchObject({ code: 'not_found' });
  });
});
