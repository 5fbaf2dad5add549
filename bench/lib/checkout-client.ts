/**
 * The three checkout calls as a merchant server and the widget make them, for benchmarks: the
 * merchant creates a session (REST, HTTP Basic), the shopper's widget loads it and pays it by card
 * with the headers the widget sends (widget/app/pay/api.ts: X-Payframe-Client, JSON; the browser
 * adds Origin and Sec-Fetch-Site for a same-origin call from the iframe). Every answer is checked;
 * anything else throws. Each call comes from a shopper address of its own (X-Forwarded-For; the
 * server runs with TRUST_PROXY=true) so the per-address rate limits, which still run, never refuse.
 */
import crypto from 'node:crypto';

export interface BenchMerchant {
  merchantId: string;
  transactionKey: string;
  /** One of the merchant's registered origins (the return URL lives there). */
  origin: string;
}

export const CARD_NUMBER = '4242424242424242';

/** An address from the benchmarking range 198.18.0.0/15. */
export function shopperAddress(): string {
  const n = crypto.randomInt(1, 2 ** 17 - 1);
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

const expiry = () => `12/${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`;

async function call(
  what: string,
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  expected: number,
): Promise<Record<string, unknown>> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${what}: HTTP ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** POST /v1/checkout-sessions; resolves to the session's token. */
export async function createSession(baseUrl: string, merchant: BenchMerchant): Promise<string> {
  const credentials = Buffer.from(`${merchant.merchantId}:${merchant.transactionKey}`).toString('base64');
  const body = await call(
    'create session',
    `${baseUrl}/v1/checkout-sessions`,
    {
      method: 'POST',
      headers: {
        authorization: `Basic ${credentials}`,
        'content-type': 'application/json',
        'x-forwarded-for': shopperAddress(),
      },
      body: JSON.stringify({
        amount: '24.99',
        currency: 'USD',
        orderNumber: `B-${crypto.randomBytes(6).toString('hex')}`,
        shopper: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
        returnUrl: `${merchant.origin}/thanks`,
      }),
    },
    201,
  );
  if (typeof body.token !== 'string') throw new Error('create session: no token in the answer');
  return body.token;
}

/** GET /api/checkout/sessions/:token, as the widget opens a session: must be `open`. */
export async function loadSession(baseUrl: string, token: string): Promise<void> {
  const body = await call(
    'load session',
    `${baseUrl}/api/checkout/sessions/${token}`,
    { method: 'GET', headers: { 'x-forwarded-for': shopperAddress() } },
    200,
  );
  if (body.status !== 'open') throw new Error(`load session: status ${String(body.status)}, expected open`);
}

/** POST /api/checkout/sessions/:token/pay by card, a fresh Idempotency-Key: must be `succeeded`. */
export async function payByCard(baseUrl: string, token: string): Promise<void> {
  const body = await call(
    'pay',
    `${baseUrl}/api/checkout/sessions/${token}/pay`,
    {
      method: 'POST',
      headers: {
        'x-payframe-client': 'widget',
        'content-type': 'application/json',
        'idempotency-key': crypto.randomUUID(),
        origin: new URL(baseUrl).origin,
        'sec-fetch-site': 'same-origin',
        'x-forwarded-for': shopperAddress(),
      },
      body: JSON.stringify({
        method: 'card',
        card: { number: CARD_NUMBER, expiry: expiry(), cvv: '123', name: 'Ada Lovelace' },
      }),
    },
    200,
  );
  if (body.status !== 'succeeded') throw new Error(`pay: status ${String(body.status)}, expected succeeded`);
}

// ---- the three operations, for a server ------------------------------------------------------

export const OPERATIONS = ['create', 'load', 'pay'] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface BenchServer {
  url: string;
  merchant: BenchMerchant;
  stop(): Promise<void>;
}

/** Untimed, uncounted work before an operation: the session it acts on. */
export async function prepare(s: BenchServer, op: Operation, n: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) tokens.push(op === 'create' ? '' : await createSession(s.url, s.merchant));
  return tokens;
}

export async function perform(s: BenchServer, op: Operation, token: string): Promise<void> {
  if (op === 'create') await createSession(s.url, s.merchant);
  else if (op === 'load') await loadSession(s.url, token);
  else await payByCard(s.url, token);
}

/** One after the other, as one shopper would. */
export async function runBatch(s: BenchServer, op: Operation, tokens: string[]): Promise<void> {
  for (const token of tokens) await perform(s, op, token);
}

export async function warmUp(s: BenchServer, n: number): Promise<void> {
  for (const op of OPERATIONS) await runBatch(s, op, await prepare(s, op, n));
}
