/**
 * Helpers of the hosted-page tests (e2e/1x-*), usable by every spec: checkout sessions made through
 * the merchant REST API with the demo merchant's credentials, their state as the merchant sees it,
 * one-time codes from the dev outbox, and the signed redirect's check (docs/merchant-guide.md).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect } from '@playwright/test';
import { laneDataDir, lanePorts } from './lanes.ts';

/** This lane's Payframe server (lanes.ts). */
export const PAYFRAME_URL = `http://127.0.0.1:${lanePorts().port}`;
/** Its demo store: the demo merchant's registered origin, so a valid ReturnUrl. */
export const DEMO_URL = `http://127.0.0.1:${lanePorts().demoPort}`;

export interface DemoMerchant {
  merchantId: string;
  transactionKey: string;
}

/** The demo merchant a server made on its first start (by default this lane's: lanes.ts). */
export function demoMerchant(dir = laneDataDir()): DemoMerchant {
  return JSON.parse(fs.readFileSync(path.join(dir, 'demo-merchant.json'), 'utf8')) as DemoMerchant;
}

export function merchantAuth(m: DemoMerchant = demoMerchant()): string {
  return `Basic ${Buffer.from(`${m.merchantId}:${m.transactionKey}`).toString('base64')}`;
}

export interface CreatedSession {
  token: string;
  url: string;
  expiresAt: string;
  orderNumber: string;
  email: string;
}

/** An address no other test uses (wallet codes and saved cards are per contact). */
export function uniqueEmail(prefix = 'shopper'): string {
  return `${prefix}-${crypto.randomBytes(5).toString('hex')}@example.com`;
}

/**
 * POST /v1/checkout-sessions as the demo merchant: $25.00 USD, a fresh order number and shopper
 * e-mail, ReturnUrl on the demo store. `overrides` replaces top-level fields of the body.
 */
export async function createSession(
  request: APIRequestContext,
  overrides: Record<string, unknown> = {},
  baseUrl = PAYFRAME_URL,
  merchant: DemoMerchant = demoMerchant(),
): Promise<CreatedSession> {
  const orderNumber = `E2E-${crypto.randomBytes(4).toString('hex').toUpperCase()}`;
  const email = uniqueEmail();
  const body = {
    amount: '25.00',
    currency: 'USD',
    orderNumber,
    shopper: { email, firstName: 'Ada', lastName: 'Lovelace', address: { zipCode: '94105' } },
    returnUrl: `${DEMO_URL}/return`,
    ...overrides,
  };
  const res = await request.post(`${baseUrl}/v1/checkout-sessions`, {
    headers: { authorization: merchantAuth(merchant) },
    data: body,
  });
  expect(res.status(), await res.text()).toBe(201);
  const created = (await res.json()) as { token: string; url: string; expiresAt: string };
  return {
    ...created,
    orderNumber: String(body.orderNumber),
    email: (body.shopper as { email?: string } | undefined)?.email ?? email,
  };
}

/** GET /v1/checkout-sessions/:token as the merchant: status, transactionId, maskedCard, paidAt. */
export async function merchantView(
  request: APIRequestContext,
  token: string,
  baseUrl = PAYFRAME_URL,
): Promise<{ status: string; transactionId?: string; maskedCard?: string; amount: string }> {
  const res = await request.get(`${baseUrl}/v1/checkout-sessions/${token}`, {
    headers: { authorization: merchantAuth() },
  });
  expect(res.status()).toBe(200);
  return res.json();
}

/**
 * The newest one-time code sent to `to` (GET /dev/outbox), waiting for one newer than `after`
 * (a message id) when given: codes are delivered just after the API answers.
 */
export async function latestCode(
  request: APIRequestContext,
  to: string,
  after?: string,
  /** The server that sends the codes (in spec mode the checkout sends what the service made). */
  baseUrl = PAYFRAME_URL,
): Promise<{ code: string; id: string }> {
  let found: { code: string; id: string } | null = null;
  await expect
    .poll(
      async () => {
        const res = await request.get(`${baseUrl}/dev/outbox?to=${encodeURIComponent(to)}`);
        const { messages } = (await res.json()) as {
          messages: { id: string | number; text: string; purpose: string }[];
        };
        // The newest code: a receipt e-mail to the same address may be newer.
        const m = messages.find((x) => x.purpose === 'otp');
        const code = m ? /\b(\d{6})\b/.exec(m.text)?.[1] : undefined;
        found = m && code && String(m.id) !== after ? { code, id: String(m.id) } : null;
        return found !== null;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found!;
}

/** True when the ReturnUrl's `signature` is the HMAC of its canonical string (merchant guide). */
export function redirectSignatureValid(url: string, transactionKey = demoMerchant().transactionKey): boolean {
  const q = new URL(url).searchParams;
  const canonical = ['status', 'token', 'transactionId', 'orderNumber', 'amount', 'currency', 'timestamp']
    .map((name) => `${name}=${q.get(name) ?? ''}`)
    .join('\n');
  const expected = crypto.createHmac('sha256', transactionKey).update(canonical, 'utf8').digest('hex');
  const given = q.get('signature') ?? '';
  return (
    given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))
  );
}

/** An expiry date a year ahead, as MM/YY. */
export function futureExpiry(): string {
  const d = new Date();
  return `${String(d.getMonth() + 1).padStart(2, '0')}/${String((d.getFullYear() + 1) % 100).padStart(2, '0')}`;
}
