/**
 * Redirect and webhook signatures during a TransactionKey roll's overlap (docs/merchant-guide.md
 * "Rolling your TransactionKey"), on every database target with the clock moved by the test: during
 * the overlap a redirect carries `signature` (the new key's) and `previousSignature` (the old key's)
 * and a webhook two `v1` values, the new key's first, so the guide's Node and Python code verify
 * with either key; after it, only the new key's, and the old key verifies nothing. The split
 * wiring's signer (SignForMerchant over the port) answers both as well.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import { portSigner } from './signer.ts';
import {
  basicAuth,
  type CheckoutWorld,
  cardBody,
  createSession,
  manualClock,
  openCheckoutWorld,
  pay,
} from '../../test/kit/checkout/checkout-world.ts';
import { runNode, runPython } from '../../test/kit/checkout/doc-snippets.ts';

const HOUR = 60 * 60 * 1000;
const hmac = (key: string, text: string) =>
  crypto.createHmac('sha256', key).update(text, 'utf8').digest('hex');

function verifyRedirect(url: string, key: string) {
  return {
    node: runNode('redirect-node', 'console.log(verifyPayframeRedirect(process.env.URL, process.env.KEY));', {
      URL: url,
      KEY: key,
    }),
    python: runPython(
      'redirect-python',
      'import os\nprint("true" if verify_payframe_redirect(os.environ["URL"], os.environ["KEY"]) else "false")',
      { URL: url, KEY: key },
    ),
  };
}

function verifyWebhook(body: string, signature: string, key: string) {
  const env = { BODY: body, SIG: signature, KEY: key };
  return {
    node: runNode(
      'webhook-node',
      'console.log(verifyPayframeWebhook(process.env.BODY, process.env.SIG, process.env.KEY));',
      env,
    ),
    python: runPython(
      'webhook-python',
      'import os\nprint("true" if verify_payframe_webhook(os.environ["BODY"].encode(), os.environ["SIG"], os.environ["KEY"]) else "false")',
      env,
    ),
  };
}

const BOTH = { node: 'true', python: 'true' };
const NEITHER = { node: 'false', python: 'false' };

describe.each(databaseTargets())('signatures during a TransactionKey roll ($name)', (target) => {
  // Starts at the real time: the guide's webhook code checks `t` against the real clock.
  const clock = manualClock();
  let w: CheckoutWorld;
  let old: string;
  let made: string;
  const received: { body: string; signature: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['payframe-signature']),
      });
      res.statusCode = 204;
      res.end();
    });
  });
  let hookUrl: string;

  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open(), {
      now: clock.now,
      webhooks: { allowPrivateNetworks: true, baseDelayMs: 1_000, timeoutMs: 2_000 },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    old = w.merchant.key;
    made = (await w.t.gateway.deps.merchants.rollKey(
      w.db,
      w.merchant.id,
      new Date(clock.now().getTime() + HOUR),
    ))!;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await w?.close();
  });

  it('during the overlap: the redirect and the webhook verify with either key', async () => {
    // The old key still authenticates the merchant's server during the overlap.
    const token = await createSession(w, { returnUrl: 'https://shop.example/done', webhookUrl: hookUrl });
    const url = (await pay(w.app, token, cardBody())).json().redirectUrl as string;
    const params = new URL(url).searchParams;
    expect(params.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(params.get('previousSignature')).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyRedirect(url, made)).toEqual(BOTH);
    expect(verifyRedirect(url, old)).toEqual(BOTH);
    expect(verifyRedirect(url, `${made}x`)).toEqual(NEITHER);
    // Paid again (a lost answer, another key): the checkout answers from its own record, which keeps
    // the new key's signature only; the previous key's is made again, so the old key still verifies.
    const again = (await pay(w.app, token, cardBody())).json() as { status: string; redirectUrl: string };
    expect(again.status).toBe('already_paid');
    expect(new URL(again.redirectUrl).searchParams.get('signature')).toBe(params.get('signature'));
    expect(verifyRedirect(again.redirectUrl, old)).toEqual(BOTH);
    expect(verifyRedirect(again.redirectUrl, made)).toEqual(BOTH);

    expect((await w.checkout.deliverWebhooks()).delivered).toBe(1);
    const got = received.at(-1)!;
    const v1 = [...got.signature.matchAll(/v1=([0-9a-f]{64})/g)].map((m) => m[1]);
    const t = /t=(\d+)/.exec(got.signature)![1];
    // The new key's first.
    expect(v1).toEqual([hmac(made, `${t}.${got.body}`), hmac(old, `${t}.${got.body}`)]);
    expect(verifyWebhook(got.body, got.signature, made)).toEqual(BOTH);
    expect(verifyWebhook(got.body, got.signature, old)).toEqual(BOTH);
    expect(verifyWebhook(got.body, got.signature, `${old}x`)).toEqual(NEITHER);

    // The split wiring's signer asks the gateway (SignForMerchant) and gets both as well.
    const signer = portSigner(w.t.gateway.service, w.app.log);
    expect(await signer.signAll(w.merchant.id, 'x')).toEqual([hmac(made, 'x'), hmac(old, 'x')]);
  });

  it('after the overlap: only the new key signs', async () => {
    clock.advance(HOUR + 1_000);
    const merchant = { ...w.merchant, key: made, authorization: basicAuth(w.merchant.id, made) };
    const token = await createSession(
      w,
      { returnUrl: 'https://shop.example/done', webhookUrl: hookUrl },
      merchant,
    );
    const url = (await pay(w.app, token, cardBody())).json().redirectUrl as string;
    expect(new URL(url).searchParams.has('previousSignature')).toBe(false);
    expect(verifyRedirect(url, made)).toEqual(BOTH);
    expect(verifyRedirect(url, old)).toEqual(NEITHER);

    expect((await w.checkout.deliverWebhooks()).delivered).toBe(1);
    const got = received.at(-1)!;
    const t = /t=(\d+)/.exec(got.signature)![1];
    expect(got.signature).toBe(`t=${t},v1=${hmac(made, `${t}.${got.body}`)}`);
    const signer = portSigner(w.t.gateway.service, w.app.log);
    expect(await signer.signAll(w.merchant.id, 'x')).toEqual([hmac(made, 'x')]);
  });
});
