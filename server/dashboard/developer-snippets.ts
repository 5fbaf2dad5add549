/**
 * The Developers page's code snippets (issue 16): filled with the merchant's own id and this
 * server's public address, never a key (the placeholder YOUR_TRANSACTION_KEY stands for it). Their
 * request path, script tag and redirect parameters are docs/merchant-guide.md's ("Create a
 * checkout session", "A script tag and an element", "Verifying the redirect"); the redirect check
 * is the guide's Node code, which accepts the previous key's signature during a roll's overlap.
 */
import { PREVIOUS_SIGNATURE_PARAM, REDIRECT_PARAMS } from '../../shared/checkout/redirect-signature.ts';

export const KEY_PLACEHOLDER = 'YOUR_TRANSACTION_KEY';

export interface DeveloperSnippets {
  /** Creates a checkout session over REST (curl). */
  rest: string;
  /** The embed: checkout.js and an element naming the session. */
  embed: string;
  /** Checks the redirect's signature (Node.js). */
  redirect: string;
}

export function developerSnippets(merchantId: string, publicUrl: string): DeveloperSnippets {
  if (!/^[1-9]\d{0,18}$/.test(merchantId)) throw new Error('A merchant id is digits.');
  const at = (path: string) => new URL(path, publicUrl).href;
  const names = REDIRECT_PARAMS.map((n) => `'${n}'`).join(', ');
  return {
    rest: [
      `curl ${at('/v1/checkout-sessions')} \\`,
      `  -u '${merchantId}:${KEY_PLACEHOLDER}' \\`,
      `  -H 'Content-Type: application/json' \\`,
      `  -d '{"amount": "24.99", "currency": "USD", "orderNumber": "A-1001", "returnUrl": "https://shop.example/thanks"}'`,
    ].join('\n'),
    embed: [
      `<script src="${at('/checkout.js')}" async></script>`,
      `<div data-payframe-session="SESSION_TOKEN_FROM_YOUR_SERVER"></div>`,
    ].join('\n'),
    redirect: [
      `import crypto from 'node:crypto';`,
      ``,
      `// Merchant ${merchantId}: keep the key on your server, e.g. in an environment variable.`,
      `const transactionKey = process.env.PAYFRAME_TRANSACTION_KEY; // ${KEY_PLACEHOLDER}`,
      ``,
      `export function verifyPayframeRedirect(url) {`,
      `  const params = new URL(url).searchParams;`,
      `  const names = [${names}];`,
      "  const signed = names.map((name) => `${name}=${params.get(name) ?? ''}`).join('\\n');",
      `  const expected = Buffer.from(crypto.createHmac('sha256', transactionKey).update(signed, 'utf8').digest('hex'));`,
      `  // During a key roll's overlap ${PREVIOUS_SIGNATURE_PARAM} is the previous key's: either may match.`,
      `  return ['signature', '${PREVIOUS_SIGNATURE_PARAM}'].some((name) => {`,
      `    const given = params.get(name) ?? '';`,
      `    return /^[0-9a-f]{64}$/.test(given) && crypto.timingSafeEqual(Buffer.from(given), expected);`,
      `  });`,
      `}`,
    ].join('\n'),
  };
}
