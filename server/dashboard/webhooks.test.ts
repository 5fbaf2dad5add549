/**
 * The dashboard's webhooks API (issue 16, Developers) through the real app on both databases: an
 * Owner sets the endpoint (checked as a session's webhook URL) and makes a signing secret, answered
 * once; Send test event reaches a real local HTTP server, signed with the secret so the guide's
 * check verifies it, and shows in the deliveries with its status, body and the answer's head;
 * Resend sends the same event id again. Roles: a Viewer and Staff are refused every webhook call
 * (403), an Admin reads, resends and tests but changes neither the endpoint nor the secret.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawCall } from '../../test/kit/gateway/gateway-kit.ts';
import { createUser } from '../gateway/users/user-store.ts';
import type { UserRole } from '../gateway/user-roles.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  type DashboardWorld,
  openDashboardWorld,
  PASSWORD,
} from '../../test/kit/dashboard/dashboard-world.ts';

interface Received {
  body: string;
  signature: string;
  eventId: string;
}

describe.each(databaseTargets())('dashboard webhooks on $name', (target) => {
  let w: DashboardWorld;
  let owner: string;
  let admin: string;
  let staff: string;
  let viewer: string;
  let server: http.Server;
  let hookUrl: string;
  const received: Received[] = [];

  async function userOfA(username: string, role: UserRole): Promise<string> {
    await createUser(w.db, { merchantId: w.a.id, username, password: PASSWORD, role });
    return w.signInVerified(username);
  }

  beforeAll(async () => {
    w = await openDashboardWorld(target);
    owner = await w.signInVerified(w.users.ann);
    admin = await userOfA('ada.admin', 'admin');
    staff = await userOfA('sam.staff', 'staff');
    viewer = await userOfA('vic.viewer', 'viewer');
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          body: Buffer.concat(chunks).toString('utf8'),
          signature: String(req.headers['payframe-signature']),
          eventId: String(req.headers['payframe-event-id']),
        });
        res.end('thanks');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/payframe`;
  }, 240_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await w?.close();
  });

  it('sets the endpoint (checked as a webhook URL), and clears it', async () => {
    const bad = await w.call('POST', '/webhooks/endpoint', {
      cookie: owner,
      body: { url: 'http://shop.example/hooks' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual([expect.objectContaining({ field: 'url' })]);
    const set = await w.call('POST', '/webhooks/endpoint', {
      cookie: owner,
      body: { url: 'https://shop.example/hooks' },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().settings).toEqual({
      endpointUrl: 'https://shop.example/hooks',
      secretCreatedAt: null,
      previousSecretValidUntil: null,
    });
    const cleared = await w.call('POST', '/webhooks/endpoint', { cookie: owner, body: { url: '' } });
    expect(cleared.json().settings.endpointUrl).toBeNull();
    // No endpoint: no test event.
    expect((await w.call('POST', '/webhooks/test', { cookie: owner })).statusCode).toBe(400);
    // Merchant B sees none of A's settings.
    await w.call('POST', '/webhooks/endpoint', { cookie: owner, body: { url: hookUrl } });
    const bob = await w.signInVerified(w.users.bob);
    expect((await w.call('GET', '/webhooks', { cookie: bob })).json()).toMatchObject({
      settings: { endpointUrl: null },
      deliveries: [],
    });
  });

  it('makes a secret shown once; a test event signed with it reaches the endpoint and is listed', async () => {
    const roll = await w.call('POST', '/webhooks/secret/roll', { cookie: owner });
    expect(roll.statusCode).toBe(200);
    const { secret } = roll.json();
    expect(secret).toMatch(/^whsec_/);
    const page = (await w.call('GET', '/webhooks', { cookie: owner })).json();
    expect(JSON.stringify(page)).not.toContain(secret);
    expect(page.settings).toMatchObject({ endpointUrl: hookUrl, secretCreatedAt: expect.any(String) });

    const test = await w.call('POST', '/webhooks/test', { cookie: owner });
    expect(test.statusCode).toBe(200);
    const delivery = test.json().delivery;
    expect(delivery).toMatchObject({
      event: 'payframe.test',
      status: 'delivered',
      statusCode: 200,
      attempts: 1,
    });
    expect(delivery.responseHead).toBe('thanks');
    const got = received.at(-1)!;
    expect(got.eventId).toBe(delivery.id);
    expect(got.body).toBe(delivery.body);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(got.signature)!;
    expect(v1).toBe(crypto.createHmac('sha256', secret).update(`${t}.${got.body}`).digest('hex'));

    const list = (await w.call('GET', '/webhooks', { cookie: owner })).json();
    expect(list.deliveries[0]).toMatchObject({ id: delivery.id, event: 'payframe.test', statusCode: 200 });
    expect(list.deliveries[0].body).toBeUndefined(); // the list carries no bodies
    const detail = (await w.call('GET', `/webhooks/deliveries/${delivery.id}`, { cookie: owner })).json();
    expect(detail.delivery).toMatchObject({ id: delivery.id, body: got.body, responseHead: 'thanks' });
  });

  it('resends a delivery with the same event id', async () => {
    const [latest] = (await w.call('GET', '/webhooks', { cookie: owner })).json().deliveries;
    const before = received.length;
    const res = await w.call('POST', `/webhooks/deliveries/${latest.id}/resend`, { cookie: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().delivery).toMatchObject({
      id: latest.id,
      attempts: latest.attempts + 1,
      statusCode: 200,
    });
    expect(received).toHaveLength(before + 1);
    expect(received.at(-1)!.eventId).toBe(latest.id);
    expect(JSON.parse(received.at(-1)!.body).id).toBe(latest.id);
    // Another merchant's delivery is not found, and not sent.
    const bob = await w.signInVerified(w.users.bob);
    expect(
      (await w.call('POST', `/webhooks/deliveries/${latest.id}/resend`, { cookie: bob })).statusCode,
    ).toBe(404);
    expect((await w.call('GET', `/webhooks/deliveries/${latest.id}`, { cookie: bob })).statusCode).toBe(404);
    expect(received).toHaveLength(before + 1);
  });

  it('refuses a Viewer and Staff every webhook call (403), and an Admin the endpoint and the secret', async () => {
    const [latest] = (await w.call('GET', '/webhooks', { cookie: owner })).json().deliveries;
    const before = received.length;
    for (const cookie of [viewer, staff]) {
      for (const [method, path] of [
        ['GET', '/webhooks'],
        ['GET', '/webhooks/deliveries'],
        ['GET', `/webhooks/deliveries/${latest.id}`],
        ['POST', `/webhooks/deliveries/${latest.id}/resend`],
        ['POST', '/webhooks/test'],
        ['POST', '/webhooks/secret/roll'],
      ] as const) {
        const res = await w.call(method, path, { cookie });
        expect(res.statusCode, `${method} ${path}`).toBe(403);
        expect(res.json().error.code).toBe('forbidden');
      }
      const endpoint = await w.call('POST', '/webhooks/endpoint', {
        cookie,
        body: { url: 'https://evil.example/x' },
      });
      expect(endpoint.statusCode).toBe(403);
    }
    expect((await w.call('GET', '/webhooks', { cookie: admin })).statusCode).toBe(200);
    expect((await w.call('POST', '/webhooks/secret/roll', { cookie: admin })).statusCode).toBe(403);
    expect(
      (await w.call('POST', '/webhooks/endpoint', { cookie: admin, body: { url: 'https://evil.example/x' } }))
        .statusCode,
    ).toBe(403);
    expect((await w.call('POST', '/webhooks/test', { cookie: admin })).statusCode).toBe(200);
    expect(received).toHaveLength(before + 1); // the Admin's test event only
    expect((await w.call('GET', '/webhooks', { cookie: owner })).json().settings.endpointUrl).toBe(hookUrl);
  });

  it("refuses a merchant's TransactionKey the endpoint, the secret and a delivery (a leaked key cannot redirect events)", async () => {
    for (const [op, params] of [
      ['SetWebhookEndpoint', { endpointUrl: 'https://evil.example/x' }],
      ['RollWebhookSecret', {}],
      ['AuthorizeWebhookDelivery', { kind: 'TestEvent' }],
    ] as const) {
      const r = await rawCall(w.t.app, op, params, w.a.as);
      expect(r.status, op).toBe(500);
      expect(r.body).toContain('not a TransactionKey');
    }
    expect((await w.call('GET', '/webhooks', { cookie: owner })).json().settings.endpointUrl).toBe(hookUrl);
  });

  it('records the changes in the audit log with the user', async () => {
    const { rows } = await w.db.query<{ action: string; outcome: string }>(
      `select action, outcome from audit_events where action like 'operation.%Webhook%' order by id`,
    );
    const actions = rows.map((r) => `${r.action}:${r.outcome}`);
    expect(actions).toContain('operation.SetWebhookEndpoint:success');
    expect(actions).toContain('operation.RollWebhookSecret:success');
    expect(actions).toContain('operation.AuthorizeWebhookDelivery:success');
    expect(actions).toContain('operation.RollWebhookSecret:failure'); // the Admin's, refused
    // A resend's record says which event.
    const permits = await w.db.query<{ detail: unknown }>(
      `select detail from audit_events where action = 'operation.AuthorizeWebhookDelivery' and outcome = 'success'`,
    );
    const details = permits.rows.map((r) =>
      typeof r.detail === 'string' ? (JSON.parse(r.detail) as Record<string, unknown>) : r.detail,
    );
    expect(details).toContainEqual(
      expect.objectContaining({ kind: 'Resend', eventID: expect.stringMatching(/^evt_/) as unknown }),
    );
  });
});
