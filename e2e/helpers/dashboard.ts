/**
 * Helpers of the dashboard's browser tests (e2e/dashboard-*.spec.ts). Each spec runs a Payframe
 * server of its own (payframe-server.ts: the compiled one, as `npm start` runs it), because the idle
 * timeout is tested by moving that server's clock (e2e/helpers/shift-clock.mjs: SIGUSR2 is two hours
 * later) and each spec's users and roles are its own; they are made with the CLI (`payframe
 * merchant create`, `payframe user create`), handed to the running server. Payments are made through
 * the real doors: a checkout session paid through the checkout API (a sale with its order number),
 * an authorisation through SOAP.
 */
import crypto from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { requiredDefaults } from '../../shared/contract/neutral.ts';
import { totpCode, TOTP_STEP_SECONDS } from '../../server/gateway/users/totp.ts';
import { TransactionServiceClient } from '../../server/soap/client/transaction-service-client.ts';
import { createSession, type DemoMerchant, futureExpiry } from './checkout.ts';
import { startPayframeServer } from './payframe-server.ts';

export interface DashboardUser {
  username: string;
  password: string;
}

export interface DashboardServer {
  base: string;
  merchant: DemoMerchant;
  /** A second merchant on the same server, whose payments the users must not see. */
  otherMerchant: DemoMerchant;
  users: Record<string, DashboardUser>;
  /** Moves the server's clock two hours ahead (past the 15-minute idle timeout, within the 12 hours). */
  shiftClock: () => void;
  /** How far the server's clock is ahead of the test's, for TOTP codes. */
  clockOffsetMs: () => number;
  stop: () => Promise<void>;
}

/**
 * A server on `port` (its demo store on `port + 1`) with one merchant whose origin is that store,
 * and one dashboard user of it per name in `userNames` (each with a password of its own), an owner
 * unless `roles` gives the name another role.
 */
export async function startDashboardServer(
  port: number,
  userNames: readonly string[],
  roles: Record<string, 'owner' | 'admin' | 'staff' | 'viewer'> = {},
): Promise<DashboardServer> {
  const server = await startPayframeServer({ port, prefix: 'payframe-e2e-dashboard-', shiftClock: true });
  const [m, o] = await Promise.all([
    server.payframe(['merchant', 'create', '--name', 'Dashboard Test Store', '--origin', server.store]),
    server.payframe(['merchant', 'create', '--name', 'Another Store']),
  ]);
  const merchant = { merchantId: String(m!.merchantId), transactionKey: String(m!.transactionKey) };
  const otherMerchant = { merchantId: String(o!.merchantId), transactionKey: String(o!.transactionKey) };
  const users: Record<string, DashboardUser> = {};
  await Promise.all(
    userNames.map(async (name) => {
      const username = `${name}.${crypto.randomBytes(3).toString('hex')}`;
      // Letters and digits, always (the password rules).
      const password = `Pw7-${crypto.randomBytes(12).toString('base64url')}`;
      await server.payframe(
        [
          'user',
          'create',
          '--merchant',
          merchant.merchantId,
          '--username',
          username,
          '--email',
          `${username}@example.com`,
          '--password-stdin',
          ...(roles[name] ? ['--role', roles[name]] : []),
        ],
        `${password}\n`,
      );
      users[name] = { username, password };
    }),
  );
  let offset = 0;
  return {
    base: server.base,
    merchant,
    otherMerchant,
    users,
    shiftClock: () => {
      server.shiftClock();
      offset += 2 * 60 * 60 * 1000;
    },
    clockOffsetMs: () => offset,
    stop: () => server.stop(),
  };
}

/**
 * The authenticator app's code for a setup key, `steps` steps (30 s each) from the server's now:
 * the server accepts one step either side and each step once, so a user signing in again within
 * the same 30 seconds uses the next step's code.
 */
export function codeFor(server: DashboardServer, setupKey: string, steps = 0): string {
  return totpCode(setupKey, new Date(Date.now() + server.clockOffsetMs() + steps * TOTP_STEP_SECONDS * 1000));
}

export async function fillSignIn(page: Page, user: DashboardUser): Promise<void> {
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Signs a new user in for the first time: enrols its second factor with the code the setup key
 * makes, and continues past the recovery codes. Answers the setup key and the recovery codes.
 */
export async function enrol(
  page: Page,
  server: DashboardServer,
  user: DashboardUser,
): Promise<{ setupKey: string; recoveryCodes: string[] }> {
  await page.goto(`${server.base}/dashboard`);
  await fillSignIn(page, user);
  await expect(page.getByRole('heading', { name: 'Set up two-step verification' })).toBeVisible();
  const setupKey = (await page.getByTestId('setup-key').textContent())?.trim() ?? '';
  expect(setupKey).toMatch(/^[A-Z2-7]{16,}$/);
  await page.getByLabel('Authentication code').fill(codeFor(server, setupKey));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
  const recoveryCodes = (
    await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents()
  ).map((c) => c.trim());
  await page.getByRole('button', { name: 'Continue to the dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  return { setupKey, recoveryCodes };
}

/**
 * A sale through a checkout session paid by card through the checkout API (as the hosted page
 * pays); `overrides` go into the session's creation (a webhookUrl, say).
 */
export async function paidSale(
  request: APIRequestContext,
  server: DashboardServer,
  amount: string,
  overrides: Record<string, unknown> = {},
): Promise<{ orderNumber: string; transactionId: string; email: string }> {
  const s = await createSession(
    request,
    { amount, returnUrl: `http://127.0.0.1:${Number(new URL(server.base).port) + 1}/return`, ...overrides },
    server.base,
    server.merchant,
  );
  const res = await request.post(`${server.base}/api/checkout/sessions/${s.token}/pay`, {
    headers: { 'x-payframe-client': 'widget', 'idempotency-key': crypto.randomUUID() },
    data: { method: 'card', card: { number: '4242424242424242', expiry: futureExpiry(), cvv: '123' } },
  });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { receipt?: { transactionId: string | null } };
  const transactionId = body.receipt?.transactionId;
  expect(transactionId, JSON.stringify(body)).toBeTruthy();
  return { orderNumber: s.orderNumber, transactionId: transactionId!, email: s.email };
}

/**
 * A card sale or an authorisation (held, not captured) through SOAP with the merchant's
 * credentials: no order number, and none of the checkout's per-address limit on pays (30 a minute).
 */
export async function soapPayment(
  server: DashboardServer,
  amount: string,
  type: 'sale' | 'auth',
  merchant: DemoMerchant = server.merchant,
): Promise<string> {
  const soap = new TransactionServiceClient({
    baseUrl: server.base,
    namespace: 'http://tempuri.org/',
    username: merchant.merchantId,
    password: merchant.transactionKey,
  });
  const res = await soap.ProcessTransaction({
    request: {
      ...requiredDefaults('Request'),
      MerchantID: merchant.merchantId,
      Amount: amount,
      CardNumber: '4242424242424242',
      ExpirationDate: futureExpiry(),
      CVV2: '123',
      TransactionType: type,
    },
  });
  expect(res.ResponseCode, res.ResponseMessage ?? '').toBe('00');
  return String(res.TransactionID);
}

/** axe with 0 violations (WCAG 2.2 AA), in light and dark. */
export async function expectAccessible(page: Page): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const result = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .analyze();
    expect(
      result.violations.map(
        (v) => `${colorScheme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** At 320 px wide the page scrolls only down, never sideways; then back to the size it had. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.setViewportSize({ width: 320, height: 700 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'no horizontal scrolling at 320 px').toBeLessThanOrEqual(0);
  await page.setViewportSize(size);
}
