/**
 * The split wiring with two real processes (server/checkout/README.md, "Split wiring"):
 * `payframe serve --role gateway` and `payframe serve --role checkout`, each with its own database
 * (its own PGlite DATA_DIR; on PostgreSQL, when TEST_DATABASE_URL is set, one fresh schema they
 * share), the checkout calling the gateway over SOAP with the service credential. A merchant server
 * and the widget are played by `fetch`; the gateway's own SOAP answers are the proof of what was
 * charged. Nothing is replaced: the same pay flow as in-process, across a real network hop.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../server/config.ts';
import { futureExpiry } from '../kit/gateway/gateway-kit.ts';
import { totpCode } from '../../server/gateway/users/totp.ts';
import { TransactionServiceClient } from '../../server/soap/client/transaction-service-client.ts';
import { openPostgresSchema, tempDir } from '../kit/databases.ts';
import {
  canonicalRedirectString,
  REDIRECT_PARAMS,
  type RedirectParams,
} from '../../shared/checkout/redirect-signature.ts';
import { hmacHex } from '../../server/checkout/signer.ts';
import { freePort } from '../kit/net.ts';

const BIN = fileURLToPath(new URL('../../bin/payframe.js', import.meta.url));
const SERVICE_KEY = 'split-wiring-service-key-0123456789abcdef';
const SHOP = 'https://shop.example';
const NAMESPACE = 'http://tempuri.org/';
const START_TIMEOUT_MS = 60_000;
const DASHBOARD_USER = 'split.admin';
const DASHBOARD_PASSWORD = 'split wiring 42 password';

interface Target {
  name: string;
  /** Environment for each role, and a cleanup for what was set up. */
  prepare(): Promise<{
    gateway: Record<string, string>;
    checkout: Record<string, string>;
    done(): Promise<void>;
  }>;
}

function targets(): Target[] {
  const list: Target[] = [
    {
      name: 'pglite, a data directory each',
      async prepare() {
        return {
          gateway: { DATA_DIR: tempDir('payframe-split-gw-'), DATABASE_URL: '' },
          checkout: { DATA_DIR: tempDir('payframe-split-co-'), DATABASE_URL: '' },
          done: async () => {},
        };
      },
    },
  ];
  const url = testDatabaseUrl();
  if (url) {
    list.push({
      name: 'postgresql, one schema',
      async prepare() {
        // A fresh schema, migrated here; both processes set search_path to it (their tables do not meet).
        const db = await openPostgresSchema(url);
        const u = new URL(url);
        u.searchParams.set('options', `-c search_path=${db.schema}`);
        const env = { DATABASE_URL: u.href, DATA_DIR: tempDir('payframe-split-pg-') };
        return { gateway: env, checkout: env, done: () => db.close() };
      },
    });
  }
  return list;
}

function run(args: string[], env: Record<string, string>, input = '') {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } });
    child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

interface Server {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** `payframe serve --role <role> --json`; resolves once it prints the address it listens on. */
function serve(role: string, env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, [BIN, 'serve', '--role', role, '--json'], {
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d));
  child.stderr?.on('data', (d: Buffer) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${role} did not start within ${START_TIMEOUT_MS} ms:\n${out}`));
    }, START_TIMEOUT_MS);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${role} exited (${code}) before listening:\n${out}`));
    };
    child.once('exit', onExit);
    const onData = () => {
      const url = /"url": "(http:\/\/[^"]+)"/.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout?.off('data', onData);
      resolve({ child, url, output: () => out });
    };
    child.stdout?.on('data', onData);
  });
}

/** SIGTERM (graceful shutdown), SIGKILL after 10 s. */
async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

const basic = (id: string, key: string) => `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`;

describe.each(targets())('the split wiring: two processes ($name)', (target) => {
  let gateway: Server | undefined;
  let checkout: Server | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  let merchant: { id: string; key: string };
  /** Enrolled in 3-D Secure. */
  let secure: { id: string; key: string };
  let soap: TransactionServiceClient;

  beforeAll(async () => {
    const env = await target.prepare();
    cleanup = env.done;
    const [gatewayPort, checkoutPort] = [await freePort(), await freePort()];
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const checkoutUrl = `http://127.0.0.1:${checkoutPort}`;
    const common = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      GATEWAY_SERVICE_KEY: SERVICE_KEY,
    };
    const gatewayEnv = {
      ...common,
      ...env.gateway,
      CARD_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
      PORT: String(gatewayPort),
      PUBLIC_URL: gatewayUrl,
      CHECKOUT_PUBLIC_URL: checkoutUrl,
    };
    // Before the gateway starts: a PGlite directory admits one process at a time.
    const created = await run(
      ['merchant', 'create', '--name', 'Split Outfitters', '--origin', SHOP, '--json'],
      {
        ...gatewayEnv,
        LOG_LEVEL: 'silent',
      },
    );
    if (created.code !== 0) throw new Error(`merchant create failed: ${created.stdout}${created.stderr}`);
    const m = JSON.parse(created.stdout) as { merchantId: string; transactionKey: string };
    merchant = { id: m.merchantId, key: m.transactionKey };
    const enrolled = await run(
      ['merchant', 'create', '--name', 'Secure Split', '--origin', SHOP, '--3ds', '--json'],
      { ...gatewayEnv, LOG_LEVEL: 'silent' },
    );
    if (enrolled.code !== 0) throw new Error(`merchant create failed: ${enrolled.stdout}${enrolled.stderr}`);
    const e = JSON.parse(enrolled.stdout) as { merchantId: string; transactionKey: string };
    secure = { id: e.merchantId, key: e.transactionKey };
    const user = await run(
      ['user', 'create', '--merchant', merchant.id, '--username', DASHBOARD_USER, '--password-stdin'],
      { ...gatewayEnv, LOG_LEVEL: 'silent' },
      `${DASHBOARD_PASSWORD}\n`,
    );
    if (user.code !== 0) throw new Error(`user create failed: ${user.stdout}${user.stderr}`);
    gateway = await serve('gateway', gatewayEnv);
    checkout = await serve('checkout', {
      ...common,
      ...env.checkout,
      PORT: String(checkoutPort),
      PUBLIC_URL: checkoutUrl,
      // Each pay below comes from a shopper address of its own (X-Forwarded-For), as behind a proxy,
      // so the per-address pay limit (30 a minute) counts shoppers, not this test.
      TRUST_PROXY: 'true',
      TRANSACTION_SERVICE_URL: gatewayUrl,
      CHECKOUT_SECRET: crypto.randomBytes(32).toString('base64'),
    });
    soap = new TransactionServiceClient({
      baseUrl: gateway.url,
      namespace: NAMESPACE,
      username: merchant.id,
      password: merchant.key,
    });
  }, 3 * START_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all([stop(checkout?.child), stop(gateway?.child)]);
    await cleanup?.();
  }, 30_000);

  async function createSession(
    orderNumber: string,
    as: { id: string; key: string } = merchant,
  ): Promise<{ token: string; url: string }> {
    const res = await fetch(`${checkout!.url}/v1/checkout-sessions`, {
      method: 'POST',
      headers: { authorization: basic(as.id, as.key), 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: '24.99',
        currency: 'USD',
        orderNumber,
        shopper: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
        returnUrl: `${SHOP}/thanks?cart=7`,
      }),
    });
    const body = await res.text();
    expect(res.status, body).toBe(201);
    return JSON.parse(body) as { token: string; url: string };
  }

  function pay(token: string, key: string, number = '4242424242424242', extra: Record<string, unknown> = {}) {
    return fetch(`${checkout!.url}/api/checkout/sessions/${token}/pay`, {
      method: 'POST',
      headers: {
        'x-payframe-client': 'widget',
        'content-type': 'application/json',
        'idempotency-key': key,
        'x-forwarded-for': `198.18.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
      },
      body: JSON.stringify({
        method: 'card',
        card: { number, expiry: futureExpiry(), cvv: '123', name: 'Ada Lovelace' },
        ...extra,
      }),
    });
  }

  /** The merchant's approved transactions, as the gateway reports them over SOAP. */
  async function transactions(): Promise<{ id: string; amount: string }[]> {
    const day = 24 * 3600_000;
    const iso = (d: Date) => d.toISOString().slice(0, 19);
    const list = await soap.GetTransactionHistories({
      startDate: iso(new Date(Date.now() - day)),
      endDate: iso(new Date(Date.now() + day)),
      merchantID: merchant.id,
    });
    return (list ?? []).map((t) => ({ id: t.TransactionID, amount: t.TransactionAmount }));
  }

  it('answers health on both processes; each serves only its own part', async () => {
    for (const s of [gateway!, checkout!]) expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    // The gateway serves SOAP, not the checkout's REST; the checkout serves no SOAP.
    expect((await fetch(`${gateway!.url}/TransactionService.asmx?WSDL`)).status).toBe(200);
    expect((await fetch(`${gateway!.url}/v1/openapi.json`)).status).toBe(404);
    expect((await fetch(`${checkout!.url}/v1/openapi.json`)).status).toBe(200);
    expect((await fetch(`${checkout!.url}/TransactionService.asmx?WSDL`)).status).toBe(404);
  });

  it('creates, pays (signed redirect), confirms, replays and refuses a second payment', async () => {
    const session = await createSession('SPLIT-1');
    // The gateway builds the URL on CHECKOUT_PUBLIC_URL: the shopper goes to the checkout process.
    expect(session.url).toBe(`${checkout!.url}/pay/${session.token}`);

    const view = await fetch(`${checkout!.url}/api/checkout/sessions/${session.token}`);
    expect(view.status).toBe(200);
    expect(await view.json()).toMatchObject({
      status: 'open',
      amount: '24.99',
      merchant: { name: 'Split Outfitters' },
    });

    const key = crypto.randomUUID();
    const first = await pay(session.token, key);
    const firstBody = await first.text();
    expect(first.status, firstBody).toBe(200);
    const paid = JSON.parse(firstBody) as {
      status: string;
      receipt: { transactionId: string; amount: string; cardBrand: string | null };
      redirectUrl: string;
    };
    expect(paid.status).toBe('succeeded');
    expect(paid.receipt.transactionId).toMatch(/^\d+$/);
    // The brand crossed the SOAP seam as PayCheckoutSession's CardBrand (issue 14 §3).
    expect(paid.receipt.cardBrand).toBe('Visa');
    expect(firstBody).not.toContain('4242424242424242');

    // The redirect is signed by the gateway (SignForMerchant) under the key only the merchant holds.
    const redirect = new URL(paid.redirectUrl);
    expect(redirect.origin + redirect.pathname).toBe(`${SHOP}/thanks`);
    const params = Object.fromEntries(
      REDIRECT_PARAMS.map((n) => [n, redirect.searchParams.get(n) ?? '']),
    ) as RedirectParams;
    expect(params).toMatchObject({
      status: 'succeeded',
      token: session.token,
      currency: 'USD',
      transactionId: paid.receipt.transactionId,
      orderNumber: 'SPLIT-1',
      amount: '24.99',
    });
    expect(redirect.searchParams.get('signature')).toBe(
      hmacHex(merchant.key, canonicalRedirectString(params)),
    );

    const confirmed = await fetch(`${checkout!.url}/v1/checkout-sessions/${session.token}`, {
      headers: { authorization: basic(merchant.id, merchant.key) },
    });
    expect(await confirmed.json()).toMatchObject({
      status: 'paid',
      transactionId: paid.receipt.transactionId,
    });

    const replay = await pay(session.token, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(firstBody);

    const other = await pay(session.token, crypto.randomUUID());
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({
      status: 'already_paid',
      receipt: { transactionId: paid.receipt.transactionId, cardBrand: 'Visa' },
    });

    const charged = await transactions();
    expect(charged).toEqual([{ id: paid.receipt.transactionId, amount: '24.99' }]);
  });

  it("signs a dashboard user in on the checkout and lists the merchant's payments (Bearer over SOAP)", async () => {
    const session = await createSession('SPLIT-DASH');
    const paid = await pay(session.token, crypto.randomUUID());
    expect(paid.status).toBe(200);
    const { receipt } = (await paid.json()) as { receipt: { transactionId: string } };

    const api = async (method: string, path: string, cookie?: string, body: unknown = {}) =>
      fetch(`${checkout!.url}/dashboard/api${path}`, {
        method,
        headers: {
          ...(cookie ? { cookie: `payframe_dashboard=${cookie}` } : {}),
          ...(method === 'POST'
            ? { 'x-payframe-client': 'dashboard', 'content-type': 'application/json' }
            : {}),
        },
        ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
      });
    const signIn = await api('POST', '/sign-in', undefined, {
      username: DASHBOARD_USER,
      password: DASHBOARD_PASSWORD,
    });
    expect(signIn.status).toBe(200);
    expect(await signIn.json()).toEqual({ secondFactor: 'EnrolmentRequired' });
    // Plain http: the cookie without __Host- and Secure.
    const cookie = /^payframe_dashboard=(ls_[\w-]{43});/.exec(signIn.headers.get('set-cookie') ?? '')?.[1];
    expect(cookie).toBeDefined();
    expect((await api('GET', '/payments', cookie)).status).toBe(403);

    const enrolment = await api('POST', '/second-factor/enrolment', cookie);
    expect(enrolment.status).toBe(200);
    const { setupKey } = (await enrolment.json()) as { setupKey: string };
    const verify = await api('POST', '/second-factor/verify', cookie, {
      code: totpCode(setupKey, new Date()),
    });
    expect(verify.status).toBe(200);

    const list = await api('GET', `/payments?q=${receipt.transactionId}`, cookie);
    expect(list.status).toBe(200);
    expect(((await list.json()) as { payments: unknown[] }).payments).toEqual([
      expect.objectContaining({ id: receipt.transactionId, orderNumber: 'SPLIT-DASH', amount: '24.99' }),
    ]);
  });

  it("counts a dashboard's failed sign-ins against the browser's address, not the checkout's", async () => {
    const signIn = (from: string, username: string, password: string) =>
      fetch(`${checkout!.url}/dashboard/api/sign-in`, {
        method: 'POST',
        headers: {
          'x-payframe-client': 'dashboard',
          'content-type': 'application/json',
          'x-forwarded-for': from,
        },
        body: JSON.stringify({ username, password }),
      });
    // Unknown users: the address's limit (30), not a user's lock-out, is what these reach.
    for (let i = 0; i < 30; i++) {
      expect((await signIn('198.51.100.7', `nobody.${i}`, 'wrong password 1')).status).toBe(401);
    }
    const blocked = await signIn('198.51.100.7', DASHBOARD_USER, DASHBOARD_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another browser behind the same checkout signs in.
    expect((await signIn('198.51.100.8', DASHBOARD_USER, DASHBOARD_PASSWORD)).status).toBe(200);
  });

  it('20 concurrent pays with different keys charge a fresh session exactly once', async () => {
    const before = await transactions();
    const session = await createSession('SPLIT-2');
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await pay(session.token, crypto.randomUUID());
        return {
          status: res.status,
          body: (await res.json()) as { status?: string; receipt?: { transactionId: string } },
        };
      }),
    );
    const succeeded = answers.filter((a) => a.status === 200 && a.body.status === 'succeeded');
    expect(succeeded).toHaveLength(1);
    const transactionId = succeeded[0]!.body.receipt!.transactionId;
    // The others lost the race: in progress (409) or, once it was paid, already_paid with the same id.
    for (const a of answers.filter((x) => x !== succeeded[0])) {
      if (a.status === 200) {
        expect(a.body).toMatchObject({ status: 'already_paid', receipt: { transactionId } });
      } else {
        expect(a.status).toBe(409);
      }
    }
    const after = await transactions();
    expect(after).toHaveLength(before.length + 1);
    expect(after.map((t) => t.id)).toContain(transactionId);
  });

  it("3-D Secure: the gateway's challenge page may be framed by the checkout; its result completes the pay", async () => {
    const session = await createSession('SPLIT-3DS', secure);
    const first = await pay(session.token, crypto.randomUUID(), '4000000000003220');
    const action = (await first.json()) as { status: string; challengeUrl: string; resultUrl: string };
    expect(action.status).toBe('requires_action');
    expect(action.challengeUrl.startsWith(`${gateway!.url}/3ds/challenge/`)).toBe(true);

    const page = await fetch(action.challengeUrl);
    expect(page.status).toBe(200);
    const ancestors = /frame-ancestors ([^;]*)/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
    expect(ancestors?.split(' ')).toEqual(expect.arrayContaining(["'self'", checkout!.url, SHOP]));

    const answered = await fetch(action.challengeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=authenticate',
    });
    expect(answered.status).toBe(200);
    // The widget polls the checkout (its own origin; the page's CSP allows no other), which asks the
    // gateway; and the hosted page lets the gateway's challenge into its frame.
    expect(action.resultUrl.startsWith(`/api/checkout/sessions/${session.token}/three-ds/`)).toBe(true);
    const result = (await (await fetch(`${checkout!.url}${action.resultUrl}`)).json()) as Record<
      string,
      string
    >;
    const hosted = await fetch(`${checkout!.url}/pay/${session.token}`);
    expect(hosted.headers.get('content-security-policy')).toContain(`frame-src 'self' ${gateway!.url}`);
    expect(result.status).toBe('authenticated');
    const { cavv, eci, xid, dsTransactionId } = result;
    const paid = await pay(session.token, crypto.randomUUID(), '4000000000003220', {
      threeDSecure: { cavv, eci, xid, dsTransactionId },
    });
    expect(await paid.json()).toMatchObject({ status: 'succeeded', receipt: { orderNumber: 'SPLIT-3DS' } });
  });

  it('wrong merchant keys sent to the checkout lock out their sender only, never the checkout itself', async () => {
    // Each failure is relayed to the gateway from the checkout's address; the gateway counts it
    // against the sender's address, which the checkout vouches for with its service key.
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${checkout!.url}/v1/checkout-sessions`, {
        method: 'POST',
        headers: {
          authorization: basic(merchant.id, `wrong-${i}`),
          'content-type': 'application/json',
          'x-forwarded-for': '203.0.113.66',
        },
        body: JSON.stringify({
          amount: '1.00',
          currency: 'USD',
          orderNumber: `X-${i}`,
          returnUrl: `${SHOP}/x`,
        }),
      });
      expect([401, 429]).toContain(res.status);
    }
    // Everyone else — merchants from other addresses, and the checkout's own calls — carries on.
    const session = await createSession('SPLIT-AFTER-ATTACK');
    const paid = await pay(session.token, crypto.randomUUID());
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { status: string }).status).toBe('succeeded');
  });

  it('keeps the merchant keys on the gateway: the service credential signs, a merchant may not', async () => {
    const service = new TransactionServiceClient({
      baseUrl: gateway!.url,
      namespace: NAMESPACE,
      username: 'service',
      password: SERVICE_KEY,
    });
    const signed = await service.SignForMerchant({ merchantID: merchant.id, message: 'a\nb' });
    expect(signed).toEqual({ Success: true, Message: 'Signed.', Signature: hmacHex(merchant.key, 'a\nb') });
    await expect(soap.SignForMerchant({ merchantID: merchant.id, message: 'x' })).rejects.toMatchObject({
      errorCode: 'forbidden',
    });
  });
});
