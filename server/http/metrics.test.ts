/**
 * GET /metrics through the real app: who may read it (loopback, never through a proxy, or a bearer
 * token), and that requests, SOAP operations, payments, one-time code sends and the webhook backlog
 * are counted, with route patterns (never session tokens) as labels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../gateway/processor/simulator.ts';
import {
  addMerchant,
  type CheckoutWorld,
  cardBody,
  createSession,
  openCheckoutWorld,
  pay,
  WIDGET_HEADERS,
} from '../../test/kit/checkout/checkout-world.ts';
import { buildTestApp } from '../../test/kit/app.ts';
import { databaseTargets } from '../../test/kit/databases.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one sample in Prometheus text format, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe.each(databaseTargets())('metrics ($name)', (target) => {
  let w: CheckoutWorld;
  beforeAll(async () => {
    // info: Fastify's request lines, which carry the request id.
    w = await openCheckoutWorld(await target.open(), { env: { LOG_LEVEL: 'info' } });
  });
  afterAll(() => w?.close());

  const scrape = async () => {
    const res = await w.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  it('answers a direct loopback peer; not another address, nor a request relayed by a proxy', async () => {
    expect(sample(await scrape(), 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(sample(await scrape(), 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    const remote = await w.app.inject({ url: '/metrics', remoteAddress: '203.0.113.7' });
    expect(remote.statusCode).toBe(404);
    expect(remote.body).not.toContain('payframe_');
    const relayed = await w.app.inject({
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(relayed.statusCode).toBe(404);
  });

  it('counts requests by route pattern, never by the session token in the URL', async () => {
    const token = await createSession(w);
    const read = await w.app.inject({
      url: `/api/checkout/sessions/${token}`,
      remoteAddress: '203.0.113.20',
      headers: { origin: 'https://shop.example' },
    });
    expect(read.statusCode).toBe(200);
    await w.app.inject({ url: '/no/such/page', remoteAddress: '203.0.113.20' });
    const text = await scrape();
    expect(text).not.toContain(token);
    expect(
      sample(text, 'payframe_http_requests_total', {
        method: 'GET',
        route: '/api/checkout/sessions/:token',
        status: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'payframe_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'payframe_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/checkout/sessions/:token',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts payments by outcome and method; a replayed answer is not a second payment', async () => {
    const before = await scrape();
    const approvedBefore =
      sample(before, 'payframe_payments_total', { outcome: 'approved', method: 'card' }) ?? 0;
    const declinedBefore =
      sample(before, 'payframe_payments_total', { outcome: 'declined', method: 'card' }) ?? 0;
    const actionBefore =
      sample(before, 'payframe_payments_total', { outcome: 'requires_action', method: 'card' }) ?? 0;

    const declined = await pay(w.app, await createSession(w), cardBody(TEST_CARDS.declined));
    expect(declined.json().status).toBe('declined');
    const key = 'metrics-replay-key-0001';
    const token = await createSession(w);
    const paid = await pay(w.app, token, cardBody(), { key });
    expect(paid.json().status).toBe('succeeded');
    const replay = await pay(w.app, token, cardBody(), { key });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const enrolled = await addMerchant(w.t, w.db, 'Secure Shop', { threeDsEnrolled: true });
    const challenge = await pay(
      w.app,
      await createSession(w, {}, enrolled),
      cardBody(TEST_CARDS.threeDSecure),
    );
    expect(challenge.json().status).toBe('requires_action');

    const after = await scrape();
    expect(sample(after, 'payframe_payments_total', { outcome: 'approved', method: 'card' })).toBe(
      approvedBefore + 1,
    );
    expect(sample(after, 'payframe_payments_total', { outcome: 'declined', method: 'card' })).toBe(
      declinedBefore + 1,
    );
    expect(sample(after, 'payframe_payments_total', { outcome: 'requires_action', method: 'card' })).toBe(
      actionBefore + 1,
    );
  });

  it('shows the webhook outbox backlog, counted at each scrape', async () => {
    const pending = async () =>
      Number(
        (
          await w.db.query<{ n: number }>(
            `select count(*)::int as n from checkout_webhook_events where state = 'pending'`,
          )
        ).rows[0]!.n,
      );
    await pay(w.app, await createSession(w, { webhookUrl: 'https://hooks.shop.example/m' }), cardBody());
    const n = await pending();
    expect(n).toBeGreaterThanOrEqual(1);
    expect(sample(await scrape(), 'payframe_webhook_backlog')).toBe(n);
    await w.db.query(`update checkout_webhook_events set state = 'delivered' where state = 'pending'`);
    expect(sample(await scrape(), 'payframe_webhook_backlog')).toBe(0);
  });

  it('counts one-time code sends', async () => {
    const before = sample(await scrape(), 'payframe_otp_sends_total') ?? 0;
    const token = await createSession(w, {
      shopper: { email: 'metrics-shopper@example.com', firstName: 'Ada', lastName: 'Lovelace' },
    });
    const res = await w.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${token}/wallet/send-code`,
      remoteAddress: '203.0.113.51',
      headers: WIDGET_HEADERS,
      payload: JSON.stringify({ email: 'metrics-shopper@example.com' }),
    });
    expect(res.statusCode).toBe(202);
    expect(sample(await scrape(), 'payframe_otp_sends_total')).toBe(before + 1);
  });

  it('counts Transaction Service operations by operation, binding and outcome', async () => {
    const call = (merchantId: string) =>
      w.app.inject({
        url: `/TransactionService.asmx/GetMerchantInfo?merchantID=${merchantId}`,
        headers: { authorization: w.merchant.authorization },
      });
    const ok = await call(w.merchant.id);
    expect(ok.statusCode).toBe(200);
    const fault = await call('9999999');
    expect(fault.statusCode).toBeGreaterThanOrEqual(400);
    const text = await scrape();
    const labels = { operation: 'GetMerchantInfo', binding: 'httpGet' };
    expect(sample(text, 'payframe_soap_operations_total', { ...labels, outcome: 'ok' })).toBe(1);
    expect(sample(text, 'payframe_soap_operations_total', { ...labels, outcome: 'fault' })).toBe(1);
    expect(sample(text, 'payframe_soap_operation_duration_seconds_count', labels)).toBe(2);
  });

  it('keeps a safe X-Request-Id and replaces an unsafe one (attack row: request ids)', async () => {
    const safe = 'lb-7f3a-2-abc-DEF-1';
    const kept = await w.app.inject({ url: '/livez', headers: { 'x-request-id': safe } });
    expect(kept.headers['x-request-id']).toBe(safe);
    for (const unsafe of [
      '<script>',
      'a b',
      'x'.repeat(65),
      '"quoted"',
      'lb-7f3a.2:abc', // dots and colons
      'abc_DEF',
      '4111-1111-1111-1111', // a card number spelled as an id
      'req-4242424242424242',
    ]) {
      const res = await w.app.inject({ url: '/livez', headers: { 'x-request-id': unsafe } });
      expect(res.headers['x-request-id'], unsafe).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    }
    const fresh = await w.app.inject('/livez');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const logged = w.t.logLines.find((l) => l.includes(safe));
    expect(logged && JSON.parse(logged).reqId).toBe(safe);
    const log = w.t.logLines.join('');
    for (const unsafe of ['lb-7f3a.2:abc', '4111-1111-1111-1111', '4242424242424242'])
      expect(log).not.toContain(unsafe);
  });
});

describe.each(databaseTargets())('metrics with METRICS_TOKEN ($name)', (target) => {
  it('asks for the bearer token, from loopback too', async () => {
    const db = await target.open();
    const t = await buildTestApp(db, { METRICS_TOKEN: TOKEN }, { closeDatabase: true });
    try {
      const none = await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
      const wrong = await t.app.inject({
        url: '/metrics',
        remoteAddress: '127.0.0.1',
        headers: { authorization: `Bearer ${TOKEN}x` },
      });
      expect(wrong.statusCode).toBe(401);
      const right = await t.app.inject({
        url: '/metrics',
        remoteAddress: '198.51.100.4',
        headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '192.0.2.1' },
      });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain('payframe_http_requests_total');
      // The token never appears in the log.
      expect(t.logLines.join('\n')).not.toContain(TOKEN);
    } finally {
      await t.close();
    }
  });
});
