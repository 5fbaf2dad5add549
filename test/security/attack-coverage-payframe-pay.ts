/**
 * Attack table: checkout, widget and gateway (docs/security.md), rows 1–23: redirects, the pages'
 * markup, branding and framing, amounts, forged requests and paying exactly once. Where each row is
 * proven; see attack-coverage.ts.
 */
import { type Coverage, t } from './coverage-model.ts';

// Files referenced more than once.
const SESSIONS = 'server/checkout/checkout-sessions.test.ts';
const IDEM = 'server/checkout/idempotency.test.ts';
const RECOVERY = 'server/checkout/recovery.test.ts';
const PAGES = 'server/checkout/pages.test.ts';
const SEC = 'server/security';

export const payframePayRows: Record<number, Coverage> = {
  1: {
    tests: [
      t(SESSIONS, 'refuses a ReturnUrl off the merchant origins: 400 with a field error'),
      t('shared/return-url.test.ts', 'allows a URL on a registered origin'),
    ],
  },
  2: { tests: [t(SESSIONS, 'refuses ReturnUrl %s (attack rows 1–4)')] },
  3: { tests: [t(SESSIONS, 'refuses ReturnUrl %s (attack rows 1–4)')] },
  4: { tests: [t(SESSIONS, 'refuses ReturnUrl %s (attack rows 1–4)')] },
  5: { tests: [t(SESSIONS, 'ignores a return_url on the hosted-page URL')] },
  6: {
    tests: [
      t(
        'server/gateway/three-ds/three-ds-routes.test.ts',
        'renders the challenge with the amount and the merchant escaped',
      ),
      t(`${SEC}/pages-and-branding.test.ts`, 'row 6: a merchant name made of markup'),
      t(
        `${SEC}/pages-and-branding.test.ts`,
        'row 6: the hosted page and the loader never parse strings as HTML',
      ),
    ],
  },
  7: {
    tests: [
      t(`${SEC}/pages-and-branding.test.ts`, 'row 7: a javascript:, data: or http: logo URL is refused'),
    ],
  },
  8: {
    tests: [
      t(
        `${SEC}/pages-and-branding.test.ts`,
        'row 8: file:, plain http to internal addresses and credentials are refused',
      ),
      t(`${SEC}/pages-and-branding.test.ts`, 'row 8: Payframe never fetches a logo'),
    ],
  },
  9: {
    tests: [
      t(`${SEC}/pages-and-branding.test.ts`, 'row 7: a javascript:, data: or http: logo URL is refused'),
      t(
        `${SEC}/pages-and-branding.test.ts`,
        'row 9: the hosted page loads images from its own origin and the merchant logo origin only',
      ),
    ],
  },
  10: { tests: [t(`${SEC}/theme.test.ts`, 'row 10: brand colours')] },
  11: {
    tests: [
      t(PAGES, 'serves the page with a CSP that allows the 3-D Secure frame and refuses every framer'),
      t(PAGES, "lets only the merchant's registered origins frame the embed mode"),
      t(PAGES, 'never lets an origin add a source or a directive'),
      t(
        'server/gateway/three-ds/three-ds-routes.test.ts',
        "may be framed by the checkout inside the merchant's",
      ),
    ],
  },
  12: {
    tests: [
      t('e2e/22-embed-isolation.spec.ts', 'forged messages have no effect'),
      t('e2e/13-hosted-page-states.spec.ts', 'embed mode: exact-origin messages to the framing page'),
      t(`${SEC}/pages-and-branding.test.ts`, 'row 12: the payment iframe listens to no message'),
      t(IDEM, 'an amount in the body is refused, and the session amount is what is charged'),
    ],
  },
  13: {
    tests: [
      t(IDEM, 'an amount in the body is refused, and the session amount is what is charged (row 13)'),
      t(`${SEC}/state-transitions.test.ts`, 'row 13: amount, currency, merchant or order fields anywhere'),
    ],
  },
  14: { tests: [t(SESSIONS, 'refuses amount %j in %s (attack row 14)')] },
  15: {
    tests: [
      t(
        'server/checkout/csrf-limits.test.ts',
        'a cross-site form post (%s, cookies, no custom header) is 403',
      ),
      t('server/checkout/csrf-limits.test.ts', 'another Origin, or Sec-Fetch-Site cross-site, is 403'),
    ],
  },
  16: {
    tests: [
      t(IDEM, 'a double-click (same key twice at once) charges once (row 16)'),
      t('e2e/10-hosted-page.spec.ts', 'a double click on Pay sends one request and charges once'),
    ],
  },
  17: {
    tests: [
      t(IDEM, 'while the first request is in flight: 409 for its key'),
      t(RECOVERY, 'an answer lost on the way back: 500, then the same key gets the real outcome, one charge'),
    ],
  },
  18: { tests: [t(IDEM, 'the same key with a different request is 422; the stored answer is unchanged')] },
  19: {
    tests: [
      t(
        'server/checkout/concurrency.test.ts',
        'concurrent pays with different keys: exactly one transaction',
      ),
      t('server/checkout/concurrency.test.ts', 'concurrent pays spread over two instances'),
      t(
        'server/checkout/pay.test.ts',
        'a different key on a paid session answers already_paid with the original receipt',
      ),
      t(
        'test/system/crash/kill-postgres.suite.ts',
        '50 concurrent pays at one session across both instances',
      ),
    ],
  },
  20: {
    tests: [
      t(RECOVERY, 'a paid session replayed after 25 h, when its key is gone: already paid, no charge'),
      t(`${SEC}/state-transitions.test.ts`, 'row 20: a paid session replayed after 25 h'),
    ],
  },
  21: {
    tests: [
      t(RECOVERY, 'the gateway charged, the checkout crashed: recovery records the charge'),
      t(
        'test/system/crash/kill-pglite.suite.ts',
        'loses no acknowledged payment and charges no session twice',
      ),
      t('test/system/crash/kill-postgres.suite.ts', 'kill -9 of one instance loses no acknowledged payment'),
    ],
  },
  22: {
    tests: [
      t(
        'test/system/crash/postgres-restart.suite.ts',
        'fails cleanly while it is down and recovers by itself',
      ),
      t('test/system/crash/kill-postgres.suite.ts', 'kill -9 of one instance loses no acknowledged payment'),
    ],
    remaining:
      'Failover to a replica (synchronous_commit=remote_apply or quorum) is a deployment choice; ' +
      'the tests cover a single server stopped and restarted under traffic.',
  },
  23: {
    tests: [
      t(`${SEC}/state-transitions.test.ts`, 'row 23: every late, repeated or out-of-order signal'),
      t(
        'server/checkout/webhooks.test.ts',
        'retries with backoff until a 2xx, across a restart, and acknowledges each event once',
      ),
    ],
    remaining:
      'Payframe receives no processor webhooks (its processor is called synchronously); the ' +
      'asynchronous inputs it does receive — 3-D Secure results, cancels, expiry and recovery ' +
      'sweeps, webhook redeliveries it sends — are what the tests replay out of order.',
  },
};
