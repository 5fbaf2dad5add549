import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { luhnValid } from '../../shared/card/luhn.ts';
import type { Database } from '../db/database.ts';
import { registerErrorHandling } from '../http/error-handler.ts';
import { buildTestApp } from '../../test/kit/app.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { devOutboxRoutes } from './dev-outbox-routes.ts';
import { createNotifier, MessageRefusedError, type NotificationMessage } from './notifier.ts';
import { listOutbox } from './outbox.ts';
import { SmsWebhookError } from './sms-webhook.ts';

const NO_TRANSPORTS = {
  smtpUrl: undefined,
  smtpFrom: 'Payframe <no-reply@payframe.invalid>',
  smsWebhookUrl: undefined,
};
const mail = (to: string, text: string, extra: Partial<NotificationMessage> = {}): NotificationMessage => ({
  channel: 'email',
  to,
  subject: 'Hello',
  text,
  purpose: 'test',
  ...extra,
});

describe.each(databaseTargets())('notifier on $name', (target) => {
  let db: Database;
  const app: FastifyInstance = Fastify();
  beforeAll(async () => {
    db = await target.open();
    registerErrorHandling(app);
    await app.register(devOutboxRoutes, { db, env: 'test' });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('puts e-mail and SMS in the dev outbox by default, readable at GET /dev/outbox newest first', async () => {
    const notifier = createNotifier(NO_TRANSPORTS, db);
    expect(notifier.describe()).toEqual({ email: 'outbox', sms: 'outbox' });
    expect(await notifier.send(mail('Ann@Example.test', 'first'))).toMatchObject({ transport: 'outbox' });
    await notifier.send(mail('ann@example.test', 'second', { html: '<p>second</p>' }));
    await notifier.send(mail('bob@example.test', 'for bob'));
    await notifier.send({
      channel: 'sms',
      to: '+1 555-010-0199',
      text: 'Your code is 123456',
      purpose: 'otp',
    });

    const res = await app.inject({ url: '/dev/outbox?to=ANN@example.test' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { messages } = res.json() as { messages: Record<string, unknown>[] };
    expect(messages.map((m) => m.text)).toEqual(['second', 'first']);
    expect(messages[0]).toMatchObject({
      channel: 'email',
      to: 'ann@example.test',
      subject: 'Hello',
      html: '<p>second</p>',
      purpose: 'test',
      createdAt: expect.any(String),
    });
    const sms = await listOutbox(db, { to: '+15550100199' });
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({
      channel: 'sms',
      subject: null,
      text: 'Your code is 123456',
      purpose: 'otp',
    });
    const all = (await app.inject({ url: '/dev/outbox?limit=2' })).json() as { messages: unknown[] };
    expect(all.messages).toHaveLength(2);
    expect((await app.inject({ url: '/dev/outbox?limit=lots' })).statusCode).toBe(400);
  });

  it('refuses, and never stores, a message with a card number in its subject, text or HTML', async () => {
    const notifier = createNotifier(NO_TRANSPORTS, db);
    const to = 'pan@example.test';
    for (const pan of ['4111111111111111', '4111 1111 1111 1111', '4111-1111-1111-1111', '378282246310005']) {
      await expect(notifier.send(mail(to, `Card ${pan} was charged.`))).rejects.toThrow(MessageRefusedError);
      await expect(notifier.send(mail(to, 'ok', { subject: `Receipt ${pan}` }))).rejects.toThrow(/subject/);
      await expect(notifier.send(mail(to, 'ok', { html: `<b>${pan}</b>` }))).rejects.toThrow(/html/);
    }
    const err = await notifier.send(mail(to, 'Card 4111111111111111')).catch((e: unknown) => e);
    expect(String(err)).not.toContain('4111111111111111');
    expect(await listOutbox(db, { to })).toEqual([]);

    // Masked numbers, and long numbers that are not card numbers, go.
    expect(luhnValid('1234567812345678')).toBe(false);
    await notifier.send(mail(to, 'Card •••• 1111, 411111******1111, order 1234567812345678.'));
    expect(await listOutbox(db, { to })).toHaveLength(1);
  });

  it('refuses malformed addresses and multi-line subjects', async () => {
    const notifier = createNotifier(NO_TRANSPORTS, db);
    await expect(notifier.send(mail('not an address', 'x'))).rejects.toThrow(MessageRefusedError);
    await expect(notifier.send(mail('a@b.test\r\nBcc: x@y.test', 'x'))).rejects.toThrow(MessageRefusedError);
    await expect(notifier.send(mail('a@b.test', 'x', { subject: 'Hi\r\nBcc: x@y.test' }))).rejects.toThrow(
      /one line/,
    );
    await expect(notifier.send({ channel: 'sms', to: 'call me', text: 'x', purpose: 'otp' })).rejects.toThrow(
      /phone number/,
    );
  });

  it('sendLater delivers after the caller has moved on; flush waits for it; failures go to onError', async () => {
    const notifier = createNotifier(NO_TRANSPORTS, db);
    const errors: unknown[] = [];
    notifier.sendLater(
      async () => mail('later@example.test', 'later'),
      (e) => errors.push(e),
    );
    notifier.sendLater(
      async () => null,
      (e) => errors.push(e),
    );
    notifier.sendLater(
      async () => mail('later@example.test', 'card 4111111111111111'),
      (e) => errors.push(e),
    );
    expect(await listOutbox(db, { to: 'later@example.test' })).toEqual([]);
    await notifier.flush();
    expect((await listOutbox(db, { to: 'later@example.test' })).map((m) => m.text)).toEqual(['later']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(MessageRefusedError);
  });
});

describe('notifier transports, and the outbox in production', () => {
  // One PGlite for these tests: opening a database is the slow part.
  let db: Database;
  beforeAll(async () => {
    db = await databaseTargets()[0]!.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('has no GET /dev/outbox when the plugin is told it runs in production', async () => {
    const app = Fastify();
    try {
      registerErrorHandling(app);
      await app.register(devOutboxRoutes, { db, env: 'production' });
      expect((await app.inject({ url: '/dev/outbox' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('has no GET /dev/outbox in the real app in production mode', async () => {
    const t = await buildTestApp(db, { NODE_ENV: 'production' });
    try {
      expect((await t.app.inject({ url: '/dev/outbox?to=a@example.test' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('sends e-mail through SMTP when SMTP_URL is set (a real SMTP server, with AUTH)', async () => {
    const received: { from: string; to: string[]; raw: string }[] = [];
    const server = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === 's3cret pass') callback(null, { user: 'mailer' });
        else callback(new Error('Invalid credentials'));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    const notifier = createNotifier(
      { ...NO_TRANSPORTS, smtpUrl: `smtp://mailer:${encodeURIComponent('s3cret pass')}@127.0.0.1:${port}` },
      db,
    );
    try {
      expect(notifier.describe()).toEqual({ email: 'smtp', sms: 'outbox' });
      const delivery = await notifier.send(
        mail('ann@example.test', 'Open this link to reset.', {
          subject: 'Reset your Payframe password',
          html: '<p>Open this link to reset.</p>',
          purpose: 'password_reset',
        }),
      );
      expect(delivery.transport).toBe('smtp');
      expect(received).toHaveLength(1);
      const [m] = received;
      expect(m!.from).toBe('no-reply@payframe.invalid');
      expect(m!.to).toEqual(['ann@example.test']);
      expect(m!.raw).toMatch(/^Subject: Reset your Payframe password\r$/m);
      expect(m!.raw).toMatch(/^From: Payframe <no-reply@payframe\.invalid>\r$/m);
      expect(m!.raw).toMatch(/^X-Payframe-Purpose: password_reset\r$/m);
      expect(m!.raw).toContain('Open this link to reset.');
      expect(m!.raw).toContain('<p>Open this link to reset.</p>');

      await expect(notifier.send(mail('ann@example.test', 'card 4111 1111 1111 1111'))).rejects.toThrow(
        MessageRefusedError,
      );
      expect(received).toHaveLength(1);
      expect(await listOutbox(db, { to: 'ann@example.test' })).toEqual([]); // nothing went to the outbox instead
    } finally {
      await notifier.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('sends SMS as a JSON POST {to, text} to SMS_WEBHOOK_URL, and fails on a non-2xx answer', async () => {
    const bodies: unknown[] = [];
    let status = 202;
    const hook = Fastify();
    hook.post('/sms', async (request, reply) => {
      bodies.push({ contentType: request.headers['content-type'], body: request.body });
      return reply.code(status).send({ ok: status < 300 });
    });
    const url = await hook.listen({ port: 0, host: '127.0.0.1' });
    const notifier = createNotifier({ ...NO_TRANSPORTS, smsWebhookUrl: `${url}/sms` }, db);
    try {
      expect(notifier.describe()).toEqual({ email: 'outbox', sms: 'sms_webhook' });
      const sms: NotificationMessage = {
        channel: 'sms',
        to: '+1 555 010 0199',
        text: 'Code 123456',
        purpose: 'otp',
      };
      expect(await notifier.send(sms)).toEqual({ transport: 'sms_webhook', id: 'sms:202' });
      expect(bodies).toEqual([
        { contentType: 'application/json', body: { to: '+15550100199', text: 'Code 123456' } },
      ]);

      await expect(notifier.send({ ...sms, text: 'Card 4111111111111111 saved' })).rejects.toThrow(
        MessageRefusedError,
      );
      expect(bodies).toHaveLength(1);

      status = 500;
      await expect(notifier.send(sms)).rejects.toThrow(SmsWebhookError);
      expect(await listOutbox(db, { to: '+15550100199' })).toEqual([]);
    } finally {
      await notifier.close();
      await hook.close();
    }
  });
});
