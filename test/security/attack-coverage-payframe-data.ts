/**
 * Attack table: checkout, widget and gateway (docs/security.md), rows 24–48: one-time codes, card
 * data in answers, logs and free text, transport, and the rows added since. Where each row is
 * proven; see attack-coverage.ts.
 */
import { type Coverage, t } from './coverage-model.ts';

// Files referenced more than once.
const OTP = 'server/checkout/otp.test.ts';
const PAGES = 'server/checkout/pages.test.ts';
const SEC = 'server/security';
const AT_REST = 'server/gateway/card-data-at-rest.test.ts';
const DETECTOR = 'shared/card/card-number-in-text.test.ts';

export const payframeDataRows: Record<number, Coverage> = {
  24: {
    tests: [
      t(OTP, '5 wrong codes burn it: the 6th try fails even when correct'),
      t(`${SEC}/otp-abuse.test.ts`, 'row 24: 1,000 guesses at one code'),
    ],
  },
  25: {
    tests: [t(OTP, 'a code works once; a new send or a new verify ends the older code and credential')],
  },
  26: { tests: [t(OTP, 'a code expires after 10 minutes (TTL + 1 s fails)')] },
  27: {
    tests: [
      t(OTP, 'an unknown contact gets the same status and body shape, and nothing is sent (OTP-7)'),
      t(
        'server/gateway/operations/verification-operations.test.ts',
        'known and unknown contacts take about as long',
      ),
      t(`${SEC}/otp-abuse.test.ts`, 'row 27: send-code answers known and unknown contacts'),
    ],
  },
  28: {
    tests: [
      t(OTP, 'sends are limited per destination (429, same for known and unknown contacts)'),
      t(
        'server/gateway/operations/verification-operations.test.ts',
        'codes only for contacts on file: a victim e-mail paired with an unknown phone codes the e-mail only',
      ),
      t(`${SEC}/otp-abuse.test.ts`, 'row 28: an SMS flood over many numbers, addresses and sessions'),
      t(`${SEC}/otp-abuse.test.ts`, 'row 28: the global SMS budget has a default'),
    ],
  },
  29: {
    tests: [
      t(OTP, 'cards need a wallet credential of this session: none, wrong or another session’s → 401'),
      t(
        'server/gateway/operations/wallet-operations.test.ts',
        'a merchant credential may not read, remove from or code into the wallet: forbidden',
      ),
      t('server/checkout/pay-wallet-3ds.test.ts', 'a wallet credential works on its own session only'),
    ],
  },
  30: {
    tests: [
      t(`${SEC}/card-number-sweep.test.ts`, 'rows 30/31: a full flow with card numbers in every field'),
      t(
        'test/system/conformance/gateway/zeep-part2.test.ts',
        'no answer, in any phase, holds a full card number',
      ),
      t(
        'server/gateway/operations/payment-profile-operations.test.ts',
        'no answer, table or log line holds a card number in the clear',
      ),
    ],
  },
  31: {
    tests: [
      t(`${SEC}/card-number-sweep.test.ts`, 'rows 30/31: a full flow with card numbers in every field'),
      t(
        'server/logger.test.ts',
        'scrubs a Luhn-valid number sent in the path, query, headers, body and messages',
      ),
      t('server/notify/notifier.test.ts', 'refuses, and never stores, a message with a card number'),
      t(
        'server/gateway/card-data-at-rest.test.ts',
        'no table holds a card number, its digits, or a CVV value',
      ),
      t('server/checkout/pay.test.ts', 'keeps no card number, CVV or account number in any checkout table'),
    ],
    remaining: 'Payframe has no tracing or Sentry sink; its log and message outbox are what is swept.',
  },
  32: {
    tests: [
      t('test/system/nginx.test.ts', 'terminates TLS: /healthz over https answers 200, with HSTS'),
      t('test/system/nginx.test.ts', 'redirects http to https, keeping the path and query'),
      t(PAGES, 'sends HSTS when the request came over https (through a trusted proxy)'),
      t(`${SEC}/transport-config.test.ts`, 'row 32: the shipped nginx configuration'),
    ],
    remaining:
      'TLS is terminated by the reverse proxy (docs/deployment.md); a scan of the real endpoint ' +
      '(testssl.sh or sslyze against staging) belongs to the deployment pipeline.',
  },
  33: {
    tests: [
      t(PAGES, 'serves the page with a CSP that allows the 3-D Secure frame and refuses every framer'),
      t(`${SEC}/pages-and-branding.test.ts`, 'row 33: every page Payframe serves has a script-src'),
      t('server/http/pinned-loader.test.ts', 'names the build and its SRI hash, serves those bytes for good'),
      t('e2e/20-embed-script-tag.spec.ts', 'pinned loader: /checkout.json names a build that Chromium runs'),
    ],
    remaining:
      'The PCI 11.6.1 external tamper monitor is not built: it needs a scheduled real-browser job ' +
      'diffing headers and script hashes against a signed baseline, outside this server. SRI is ' +
      'there for merchants who pin the loader (/checkout.json, /checkout.<version>.js).',
  },
  34: {
    tests: [
      t(
        'server/checkout/idempotency-cvv.test.ts',
        'is the same for all 10,000 CVVs of a card body and of a saved-card body',
      ),
      t(
        'server/checkout/idempotency-cvv.test.ts',
        'a card pay replayed with another CVV gets the first answer',
      ),
      t(
        'server/checkout/idempotency-cvv.test.ts',
        'a saved-card pay replayed with another CVV gets the first answer',
      ),
    ],
  },
  35: {
    tests: [
      t(
        'server/checkout/pay-limits.test.ts',
        'junk from many addresses leaves the session its pays: the shopper still pays',
      ),
      t('server/checkout/pay-limits.test.ts', 'is counted per address: the fourth is 429'),
    ],
  },
  36: {
    tests: [
      t(
        'server/checkout/wallet-closed.test.ts',
        'verify on a session closed as %s issues no credential (%s)',
      ),
    ],
  },
  37: {
    tests: [
      t(AT_REST, 'text elements of every operation, over every binding, naming the element'),
      t(AT_REST, 'no table holds a card number, its digits, or a CVV value; the outbox and webhook bodies'),
      t(AT_REST, 'no file of the PGlite data directory, its WAL included, holds one'),
      t('shared/contract/card-text.test.ts', 'names the element, nested and in lists'),
    ],
  },
  38: {
    tests: [
      t(DETECTOR, 'generated numbers (every brand, range and length) in'),
      t(DETECTOR, 'catches the separators that used to pass'),
      t(AT_REST, 'refuses them in the checkout API’s text fields, naming each field'),
      t(
        'server/logger.test.ts',
        'scrubs card numbers spelled any way in the URL, the query string, the Host header and a request id',
      ),
    ],
  },
  39: {
    tests: [
      t(DETECTOR, 'false positives: 0 of'),
      t(DETECTOR, 'lets the numbers that used to be refused pass'),
      t('shared/card/card-iin.test.ts', 'names the brand of every documented test card'),
    ],
  },
  40: {
    tests: [t('server/http/metrics.test.ts', 'keeps a safe X-Request-Id and replaces an unsafe one')],
  },
  41: {
    tests: [
      t(
        'server/soap/get-binding.test.ts',
        'CancelHostedPayment over GET is 405 with Allow: POST, and the session stays open',
      ),
      t('server/soap/get-binding.test.ts', '%s over GET is 405, whoever calls, and reaches no handler'),
      t('server/soap/get-binding.test.ts', 'the WSDL and the help page offer GET for reads only'),
      t(
        'server/soap/get-binding.test.ts',
        'with SOAP_HTTP_GET_CHANGES=true, CancelHostedPayment over GET cancels',
      ),
    ],
  },
  42: {
    tests: [
      t('server/soap/auth-before-reading.test.ts', 'no credential, %s: 401, the body unread'),
      t('server/soap/auth-before-reading.test.ts', 'a wrong key, %s: 401'),
      t('server/soap/auth-before-reading.test.ts', 'a throttled address gets 429 before its body is read'),
      t(
        'server/soap/auth-before-reading.test.ts',
        'an operation named by the Body only (SOAP 1.2): 401 unless it is public',
      ),
    ],
  },
  43: {
    tests: [
      t(
        'server/checkout/return-url-paths.test.ts',
        'a ReturnUrl with %s: 400 over REST, Success=false over SOAP, nothing stored',
      ),
      t('server/checkout/return-url-paths.test.ts', 'a WebhookUrl with %s: refused on both paths'),
      t('shared/return-url.test.ts', 'refuses %s (%s), however it is spelled'),
      t('shared/return-url.test.ts', 'is at most 2,048 characters, before and after parsing'),
    ],
  },
  44: {
    tests: [
      t(
        'server/checkout/three-ds-session.test.ts',
        "another session's result (same merchant, card and amount) is declined there",
      ),
      t('server/checkout/three-ds-session.test.ts', 'the result route answers for its own session only'),
      t(
        'server/checkout/three-ds-session.test.ts',
        "a session's result does not pay a merchant's own ProcessTransaction",
      ),
    ],
  },
  45: {
    tests: [
      t(
        'server/gateway/card-names.test.ts',
        "a second merchant's sale of the same card shows the name it sent, or none",
      ),
      t('server/gateway/card-names.test.ts', "a token pays with its own merchant's name"),
      t(
        'server/gateway/card-names.test.ts',
        "a shopper's wallet shows the name saved with the shopper's entry",
      ),
    ],
  },
  46: {
    tests: [
      t('server/http/csp-reports.test.ts', 'the hosted page reports to /csp-reports'),
      t('server/http/csp-reports.test.ts', 'records a report-uri report'),
      t('server/http/csp-reports.test.ts', 'records Reporting API reports'),
      t('server/http/csp-reports.test.ts', 'refuses a body over'),
      t('server/http/csp-reports.test.ts', 'limits reports per address'),
    ],
    remaining:
      "Alerting on payframe_csp_violations_total is the monitoring system's (docs/deployment.md " +
      'names the rule); the test proves each report is recorded and counted by directive.',
  },
  47: {
    tests: [t('server/http/csp-reports.test.ts', 'is same-origin for openers')],
    remaining:
      "That a browser severs the opener is the browser's part; the test proves the header is sent " +
      'on the hosted page and its embed mode (which browsers ignore inside an iframe).',
  },
  48: {
    tests: [
      t(`${SEC}/text-policy.test.ts`, 'merchant REST: an order number or name with %s is 400'),
      t(`${SEC}/text-policy.test.ts`, "pay API: the cardholder's name with %s is 400"),
      t(`${SEC}/text-policy.test.ts`, 'SOAP 1.1 CreateHostedPayment and ProcessTransaction with %s'),
      t(`${SEC}/text-policy.test.ts`, 'SOAP 1.2 and HTTP POST meet the same rule'),
      t(`${SEC}/text-policy.test.ts`, 'text is stored in NFC, whichever path brought it'),
      t(`${SEC}/text-policy.test.ts`, 'a merchant display name: the text policy and no mixed-script word'),
      t('shared/text/text-policy.test.ts', 'refuses an invisible character: %s'),
      t('shared/text/text-policy.test.ts', 'refuses %s'),
      t('e2e/10-hosted-page.spec.ts', 'pays by card and returns to the merchant with a signed redirect'),
    ],
    remaining:
      'Whole-script confusables (a name written entirely in look-alike letters of another script) ' +
      'pass the mixed-script check by design (UTS #39 allows single-script names); the website host ' +
      'shown beside the name is the defence for those.',
  },
};
