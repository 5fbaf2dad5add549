/**
 * Spec mode end to end (issue 20): the checkout role in front of a Transaction Service that speaks
 * only the spec's 21 operations (`serve --role gateway --spec-only`), the checkout choosing spec by
 * itself (TRANSACTION_SERVICE_MODE=auto reads the WSDL at start). Sessions are the service's own:
 * CreateInvoice's token (no ReturnUrl, no shopper) and the service operator's `payframe session
 * create` (a ReturnUrl and the shopper's e-mail, so the signed return and the saved cards). The
 * service's own answers (GetTransactionHistories, GetHostedPaymentDetails) are the proof of what was
 * charged. Real processes, Debian's Chromium; helpers/spec-pair.ts starts them.
 */
import http from 'node:http';
import { expect, type Page, test } from '@playwright/test';
import { requiredDefaults } from '../shared/contract/neutral.ts';
import { freePort } from '../test/kit/net.ts';
import { futureExpiry, latestCode, redirectSignatureValid, uniqueEmail } from './helpers/checkout.ts';
import { APPROVED_CARD, collectErrors, payByCard } from './helpers/embed.ts';
import {
  invoiceSession,
  operatorSession,
  type SpecPair,
  startSpecPair,
  transactionsOf,
} from './helpers/spec-pair.ts';

const MERCHANT_NAME = 'Spec Mode Outfitters';
const DECLINED_CARD = { ...APPROVED_CARD, number: '4000 0000 0000 0002' };

let pair: SpecPair;
let shop: http.Server;
let shopOrigin: string;
/** The query strings the shop's /return was asked with (by any window, frames included). */
const returns: string[] = [];

/** The merchant's page on an origin of its own: the one script tag and the element (merchant guide). */
function shopPage(checkoutUrl: string, token: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Spec shop</title>
<script src="${checkoutUrl}/checkout.js" async></script></head>
<body><h1>Spec shop</h1>
<div id="pay" data-payframe-session="${token}"></div>
<p id="result"></p>
<script src="/shop.js"></script>
</body></html>`;
}

/** Records the widget's `success` event (they bubble to the document) as the page's text. */
const SHOP_JS = `document.addEventListener('payframe:success', (e) => {
  document.getElementById('result').textContent = 'paid ' + e.detail.amount + ' transaction ' + e.detail.transactionId;
});`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const shopPort = await freePort();
  shopOrigin = `http://127.0.0.1:${shopPort}`;
  pair = await startSpecPair({ merchantName: MERCHANT_NAME, shopOrigins: [shopOrigin] });
  shop = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', shopOrigin);
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
    } else if (url.pathname === '/shop.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(SHOP_JS);
    } else if (url.pathname === '/return') {
      returns.push(url.search);
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><html lang="en"><title>Spec shop</title><h1>Back at the shop</h1></html>');
    } else if (url.pathname === '/checkout') {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(shopPage(pair.checkoutUrl, url.searchParams.get('token') ?? ''));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => shop.listen(shopPort, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  await new Promise((resolve) => shop?.close(resolve));
  await pair?.stop();
});

/**
 * Opens the hosted page and checks it shows the session: the merchant's name as a heading, and the
 * amount due. CreateInvoice carries no currency, so the page writes the amount without a symbol.
 */
async function openHosted(page: Page, token: string, amount: string): Promise<void> {
  await page.goto(`${pair.checkoutUrl}/pay/${token}`);
  await expect(page.getByRole('heading', { level: 1, name: MERCHANT_NAME })).toBeVisible();
  await expect(page.getByText('Amount due')).toBeVisible();
  await expect(page.getByText(amount, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: `Pay ${amount}`, exact: true })).toBeVisible();
}

/** The transactions the service approved for the session (an ApprovalCode), and all it has for it. */
async function charges(token: string) {
  const all = await transactionsOf(pair, token);
  return { all, approved: all.filter((t) => !!t.ApprovalCode?.trim()) };
}

test(
  'the checkout chose spec by itself: what it serves says no cancel and no saved-card removal',
  { tag: '@system' },
  async ({ request }) => {
    // The service offers the spec's operations and none of Payframe's extensions (--spec-only).
    const wsdl = await (await request.get(`${pair.gatewayUrl}/TransactionService.asmx?WSDL`)).text();
    expect(wsdl).toContain('GetHostedPaymentDetails');
    expect(wsdl).not.toContain('GetCheckoutSession');
    const token = await invoiceSession(pair, '3.00', 'INV-MODE');
    const res = await request.get(`${pair.checkoutUrl}/api/checkout/sessions/${token}`);
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'open',
      amount: '3.00',
      merchant: { name: MERCHANT_NAME },
      embedOrigins: [shopOrigin],
      capabilities: { cancel: false, removeSavedCard: false },
    });
  },
);

test(
  'an invoice session: the hosted page shows amount and merchant, pays a card, shows the receipt; charged once',
  { tag: '@system' },
  async ({ page }) => {
    test.slow();
    const errors = collectErrors(page);
    const token = await invoiceSession(pair, '24.99', 'INV-CARD');
    await openHosted(page, token, '24.99');
    await payByCard(page);
    await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
    await expect(page.getByText('24.99', { exact: true }).first()).toBeVisible();
    const { all, approved } = await charges(token);
    expect(all).toHaveLength(1);
    expect(approved).toHaveLength(1);
    expect(approved[0]!.TransactionAmount).toBe('24.99');
    expect(approved[0]!.CardNumberLast4Digit).toMatch(/4242$/);
    // A reload is the receipt again, from the checkout's own record, and charges nothing.
    await page.reload();
    const receipt = page.getByRole('region', { name: 'This order has already been paid.' });
    await expect(receipt).toBeVisible();
    await expect(receipt.getByRole('definition').filter({ hasText: approved[0]!.TransactionID })).toHaveCount(
      1,
    );
    expect((await charges(token)).approved).toHaveLength(1);
    expect(errors).toEqual([]);
  },
);

test('a declined card is told as one; then a good card pays, once', { tag: '@system' }, async ({ page }) => {
  test.slow();
  const token = await invoiceSession(pair, '12.00', 'INV-DECLINE');
  await openHosted(page, token, '12.00');
  await payByCard(page, DECLINED_CARD);
  await expect(page.getByRole('alert')).toContainText('Your card was declined. Please use another card.');
  expect((await charges(token)).approved).toHaveLength(0);
  await page.getByLabel('Card number').fill(APPROVED_CARD.number);
  await page.getByRole('button', { name: 'Pay 12.00', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  const { all, approved } = await charges(token);
  expect(approved).toHaveLength(1);
  expect(all).toHaveLength(2);
});

test('pays from a bank account (ACH)', { tag: '@system' }, async ({ page }) => {
  test.slow();
  const token = await invoiceSession(pair, '80.00', 'INV-ACH');
  await openHosted(page, token, '80.00');
  await page.getByRole('radio', { name: 'Bank account' }).check();
  await page.getByLabel('Routing number').fill('011000015');
  await page.getByLabel('Account number', { exact: true }).fill('000123456789');
  await page.getByLabel('Confirm account number').fill('000123456789');
  await page.getByRole('radio', { name: 'Checking', exact: true }).check();
  await page.getByLabel('Name on account').fill('Ada Lovelace');
  await page.getByLabel(new RegExp(`I authorize ${MERCHANT_NAME} to debit 80\\.00 `)).check();
  await page.getByRole('button', { name: 'Pay 80.00', exact: true }).click();
  // A bank debit is submitted, not yet successful: it settles over business days.
  await expect(page.getByRole('heading', { name: 'Payment submitted' })).toBeVisible();
  const { all, approved } = await charges(token);
  expect(all).toHaveLength(1);
  expect(approved).toHaveLength(1);
  expect(approved[0]!.TransactionAmount).toBe('80.00');
});

test(
  'the embedded widget: one script tag on the shop’s own origin, paid inside the iframe',
  { tag: '@system' },
  async ({ page }) => {
    test.slow();
    const errors = collectErrors(page);
    // A session with a ReturnUrl: an embedded form still only tells its page, as in payframe mode.
    const token = await operatorSession(pair, {
      amount: '9.50',
      order: 'ORD-EMBED',
      returnUrl: `${shopOrigin}/return`,
    });
    const framed = page.waitForResponse((r) => new URL(r.url()).pathname === `/pay/${token}`);
    await page.goto(`${shopOrigin}/checkout?token=${token}`);
    // The frame may be embedded by the origins of the checkout's entry for this merchant, and no other.
    const csp = (await framed).headers()['content-security-policy'] ?? '';
    expect(/frame-ancestors ([^;]*)/.exec(csp)?.[1]?.trim()).toBe(shopOrigin);
    const iframe = page.locator('#pay iframe');
    await expect(iframe).toHaveAttribute('title', 'Secure payment form');
    expect(new URL((await iframe.getAttribute('src'))!).origin).toBe(pair.checkoutUrl);
    const frame = page.frameLocator('#pay iframe');
    await expect(frame.getByRole('button', { name: 'Pay 9.50', exact: true })).toBeVisible();
    await payByCard(frame);
    await expect(page.locator('#result')).toHaveText(/^paid 9\.50 transaction \d+$/);
    const { approved } = await charges(token);
    expect(approved).toHaveLength(1);
    expect(await page.locator('#result').textContent()).toBe(
      `paid 9.50 transaction ${approved[0]!.TransactionID}`,
    );
    // Neither the page nor the frame went to the ReturnUrl.
    expect(page.url()).toBe(`${shopOrigin}/checkout?token=${token}`);
    const frameUrls = page.frames().map((f) => new URL(f.url()));
    expect(frameUrls.map((u) => `${u.origin}${u.pathname}`)).toContain(`${pair.checkoutUrl}/pay/${token}`);
    expect(returns.filter((q) => q.includes(token))).toEqual([]);
    expect(errors).toEqual([]);
  },
);

test(
  "a session the service will not resolve (paid elsewhere): the page shows the service's message, takes nothing",
  { tag: '@system' },
  async ({ page }) => {
    test.slow();
    const token = await invoiceSession(pair, '6.00', 'INV-ELSEWHERE');
    // Paid at the service directly, not through this checkout.
    const paid = await pair.soap.ProcessTransaction({
      request: {
        ...requiredDefaults('Request'),
        MerchantID: pair.merchant.id,
        TransactionType: 'sale',
        HostedPaymentToken: token,
        CardNumber: '4242424242424242',
        ExpirationDate: '12/40',
        CVV2: '123',
      },
    });
    expect(paid.ResponseCode).toBe('00');
    const details = await pair.soap.GetHostedPaymentDetails({ token });
    expect(details.Success).toBe(false);
    const message = details.Message ?? '';
    expect(message).toMatch(/\S/);
    await page.goto(`${pair.checkoutUrl}/pay/${token}`);
    const notice = page.getByTestId('unavailable');
    await expect(notice.getByRole('heading', { name: "This payment can't be made" })).toBeVisible();
    // The service's words, as they are (the checkout reads nothing out of them).
    await expect(page.getByTestId('unavailable-message')).toHaveText(message);
    await expect(page.getByRole('button', { name: /^Pay/ })).toHaveCount(0);
    expect((await transactionsOf(pair, token)).length).toBe(0); // the direct sale carried no CustomValue1
  },
);

test(
  'a session with a ReturnUrl: paid on the hosted page, the shopper lands on it, signed with the merchant’s redirect secret',
  { tag: '@system' },
  async ({ page }) => {
    test.slow();
    const token = await operatorSession(pair, {
      amount: '15.00',
      order: 'ORD-RETURN',
      returnUrl: `${shopOrigin}/return?cart=7`,
    });
    await openHosted(page, token, '15.00');
    await payByCard(page);
    await expect(page).toHaveURL(new RegExp(`^${shopOrigin}/return\\?cart=7&`));
    await expect(page.getByRole('heading', { name: 'Back at the shop' })).toBeVisible();
    expect(returns.filter((q) => q.includes(token))).toHaveLength(1);
    const { all, approved } = await charges(token);
    expect(all).toHaveLength(1);
    expect(approved).toHaveLength(1);
    const q = new URL(page.url()).searchParams;
    expect(Object.fromEntries(q)).toMatchObject({
      status: 'succeeded',
      token,
      transactionId: approved[0]!.TransactionID,
      orderNumber: 'ORD-RETURN',
      amount: '15.00',
      currency: '', // the spec carries no currency
    });
    // Signed under the redirect secret the checkout holds for the merchant (merchant guide, spec mode).
    expect(redirectSignatureValid(page.url(), pair.redirectSecret)).toBe(true);
    expect(redirectSignatureValid(page.url(), pair.merchant.key)).toBe(false);
    const forged = new URL(page.url());
    forged.searchParams.set('amount', '1.00');
    expect(redirectSignatureValid(forged.toString(), pair.redirectSecret)).toBe(false);
    // Back is the receipt, and charges nothing.
    await page.goBack();
    await expect(
      page.getByRole('heading', { name: /^(This order has already been paid\.|Payment successful)$/ }),
    ).toBeVisible();
    expect((await charges(token)).approved).toHaveLength(1);
  },
);

test(
  'saved cards through the one-time code: saved on one session, paid on the next; no Remove in spec mode',
  { tag: '@system' },
  async ({ page, request }) => {
    test.slow();
    const email = uniqueEmail('spec-wallet');
    const returnUrl = `${shopOrigin}/return`;
    const first = await operatorSession(pair, { amount: '7.25', order: 'ORD-SAVE', returnUrl, email });
    await openHosted(page, first, '7.25');
    await page.getByLabel('Card number').fill('5555 5555 5555 4444');
    await page.getByLabel('Expiration date').fill(futureExpiry());
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('Save this card for faster checkout').check();
    await page.getByRole('button', { name: 'Pay 7.25', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`^${returnUrl}\\?`));
    expect((await charges(first)).approved).toHaveLength(1);

    const second = await operatorSession(pair, { amount: '3.10', order: 'ORD-SAVED', returnUrl, email });
    await openHosted(page, second, '3.10');
    await page.getByRole('button', { name: 'Get a code' }).click();
    // The service makes the code (SendVerificationCode answers it); the checkout sends it to the
    // session's e-mail, and its dev outbox stands in for the shopper's mailbox.
    const sent = await latestCode(request, email, undefined, pair.checkoutUrl);
    await page.getByLabel('Verification code').fill(sent.code);
    await page.getByRole('button', { name: 'Verify' }).click();
    const saved = page.getByRole('group', { name: 'Saved cards' });
    await expect(saved).toBeVisible();
    await expect(saved.getByRole('radio')).toHaveCount(1);
    await expect(
      page.getByRole('radio', { name: `Mastercard ••4444, expires ${futureExpiry()}` }),
    ).toBeChecked();
    // Removing a saved card is not in the spec: not offered.
    await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);
    const wallet = page.getByTestId('wallet');
    await wallet.getByLabel('Security code').fill('123');
    await wallet.getByRole('button', { name: 'Pay 3.10', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`^${returnUrl}\\?`));
    expect(redirectSignatureValid(page.url(), pair.redirectSecret)).toBe(true);
    const { all, approved } = await charges(second);
    expect(all).toHaveLength(1);
    expect(approved).toHaveLength(1);
    expect(approved[0]!.TransactionAmount).toBe('3.10');
    expect(approved[0]!.CardNumberLast4Digit).toMatch(/4444$/);
    expect(new URL(page.url()).searchParams.get('transactionId')).toBe(approved[0]!.TransactionID);
  },
);

test(
  'no Cancel is offered in spec mode; an invoice session (no shopper e-mail) offers no saved cards',
  { tag: '@system' },
  async ({ page }) => {
    const token = await invoiceSession(pair, '4.00', 'INV-NOCANCEL');
    await openHosted(page, token, '4.00');
    await expect(page.getByRole('button', { name: 'Cancel payment' })).toHaveCount(0);
    // Why saved cards (and so their Remove) are not reached here: the wallet belongs to the session's
    // e-mail, and CreateInvoice carries none.
    await expect(page.getByLabel('Save this card for faster checkout')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Get a code' })).toHaveCount(0);
  },
);
