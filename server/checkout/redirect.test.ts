/**
 * The signed redirect (DESIGN.md §10): the redirect of a real payment verifies with the Node and
 * Python snippets of docs/merchant-guide.md, run as merchants would run them; a tampered
 * parameter or another key does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../test/kit/databases.ts';
import { canonicalRedirectString } from '../../shared/checkout/redirect-signature.ts';
import {
  type CheckoutWorld,
  cardBody,
  createSession,
  openCheckoutWorld,
  pay,
} from '../../test/kit/checkout/checkout-world.ts';
import { runNode, runPython } from '../../test/kit/checkout/doc-snippets.ts';

const NODE_DRIVER = 'console.log(verifyPayframeRedirect(process.env.URL, process.env.KEY));';
const PYTHON_DRIVER =
  'import os\nprint("true" if verify_payframe_redirect(os.environ["URL"], os.environ["KEY"]) else "false")';

function verify(url: string, key: string): { node: string; python: string } {
  return {
    node: runNode('redirect-node', NODE_DRIVER, { URL: url, KEY: key }),
    python: runPython('redirect-python', PYTHON_DRIVER, { URL: url, KEY: key }),
  };
}

describe('the canonical redirect string', () => {
  it('is the seven parameters in order, name=value, joined by line feeds', () => {
    expect(
      canonicalRedirectString({
        status: 'succeeded',
        token: 'cs_abc',
        transactionId: '500000001',
        orderNumber: 'A-1001',
        amount: '24.99',
        currency: 'USD',
        timestamp: '1767225600',
      }),
    ).toBe(
      'status=succeeded\ntoken=cs_abc\ntransactionId=500000001\norderNumber=A-1001\namount=24.99\ncurrency=USD\ntimestamp=1767225600',
    );
  });
});

describe.each(databaseTargets())('redirect signature ($name)', (target) => {
  let w: CheckoutWorld;
  let redirectUrl: string;
  let token: string;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open());
    // An order number that needs encoding: spaces, &, =, +, non-ASCII.
    token = await createSession(w, {
      orderNumber: 'A 1&b=2+ü',
      returnUrl: 'https://shop.example/done?status=x&keep=1',
    });
    redirectUrl = (await pay(w.app, token, cardBody())).json().redirectUrl;
  });
  afterAll(() => w?.close());

  it('carries status, session token, transaction id, order number, amount, currency, time and signature; keeps other parameters', () => {
    const params = new URL(redirectUrl).searchParams;
    expect(params.get('status')).toBe('succeeded');
    expect(params.get('token')).toBe(token);
    expect(params.get('currency')).toBe('USD');
    expect(params.get('orderNumber')).toBe('A 1&b=2+ü');
    expect(params.get('amount')).toBe('24.99');
    expect(params.get('keep')).toBe('1');
    expect(params.getAll('status')).toHaveLength(1);
    expect(Math.abs(Number(params.get('timestamp')) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('verifies with the guide’s Node and Python code', () => {
    expect(verify(redirectUrl, w.merchant.key)).toEqual({ node: 'true', python: 'true' });
  });

  it('does not verify when a parameter is changed or the key is another', () => {
    const tampered = new URL(redirectUrl);
    tampered.searchParams.set('amount', '0.01');
    expect(verify(tampered.href, w.merchant.key)).toEqual({ node: 'false', python: 'false' });
    // The token and the currency are signed too: another session's token or currency does not verify.
    for (const [name, value] of [
      ['token', `cs_${'A'.repeat(43)}`],
      ['currency', 'EUR'],
    ] as const) {
      const changed = new URL(redirectUrl);
      changed.searchParams.set(name, value);
      expect(verify(changed.href, w.merchant.key)).toEqual({ node: 'false', python: 'false' });
    }
    expect(verify(redirectUrl, `${w.merchant.key}x`)).toEqual({ node: 'false', python: 'false' });
    // A signature of the right length in characters but not in bytes: refused, not thrown.
    const wide = new URL(redirectUrl);
    wide.searchParams.set('signature', `é${wide.searchParams.get('signature')!.slice(1)}`);
    expect(verify(wide.href, w.merchant.key)).toEqual({ node: 'false', python: 'false' });
  });
});
