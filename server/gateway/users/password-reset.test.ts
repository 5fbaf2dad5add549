import Fastify, { type FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import { listOutbox } from '../../notify/outbox.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { FORGOT_PASSWORD_MISSING, FORGOT_PASSWORD_SENT } from '../operations/user-operations.ts';
import { ANN, openUsersWorld, PUBLIC_URL, type UsersWorld } from '../../../test/kit/gateway/users-world.ts';
import { MAX_RESETS_PER_HOUR } from './password-reset.ts';
import { passwordResetRoutes } from './password-reset-routes.ts';
import { soapCall } from '../../../test/kit/gateway/soap-call.ts';

const NEW_PASSWORD = 'brand new password 2030';
const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe.each(databaseTargets())('ForgotPassword and the reset link on $name', (target) => {
  let w: UsersWorld;
  beforeAll(async () => {
    w = await openUsersWorld(target);
  });
  afterAll(() => w.close());

  const reset = (body: Record<string, string>, headers: Record<string, string> = json) =>
    w.routes.inject({
      method: 'POST',
      url: '/reset-password',
      headers,
      payload: headers === json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
    });

  it('answers the same whether or not the user exists and the e-mail matches; sends one link when both match', async () => {
    const match = await w.forgotPassword('ann.admin', 'ANN@alpha.example');
    const wrongEmail = await w.forgotPassword(ANN.username, 'mallory@evil.example');
    const unknown = await w.forgotPassword('nobody.here', ANN.email);
    expect(match.result).toEqual({ Status: true, Message: FORGOT_PASSWORD_SENT });
    expect(wrongEmail.body).toBe(match.body);
    expect(unknown.body).toBe(match.body);
    expect((await w.forgotPassword('', '')).result).toEqual({
      Status: false,
      Message: FORGOT_PASSWORD_MISSING,
    });

    await w.deps.notifier.flush();
    expect(await listOutbox(w.db, { to: 'mallory@evil.example' })).toEqual([]);
    const sent = await listOutbox(w.db, { to: ANN.email });
    expect(sent).toHaveLength(1);
    const m = sent[0]!;
    expect(m).toMatchObject({
      channel: 'email',
      purpose: 'password_reset',
      subject: 'Reset your Payframe password',
    });
    expect(m.text).toContain(`${PUBLIC_URL}/reset-password?token=pr_`);
    expect(m.text).toContain('within 30 minutes');
    expect(m.html).toContain('href="https://pay.example.test/reset-password?token=pr_');
    // Only its hash is stored.
    const token = await w.resetTokenSentTo(ANN.email);
    const { rows } = await w.db.query<{ token_hash: string }>('select token_hash from password_reset_tokens');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(token!.slice(3, 20));
  });

  it('shows a form with no script, then sets the password once; the second use is refused', async () => {
    const before = await w.login(ANN.username, ANN.password);
    await w.forgotPassword(ANN.username, ANN.email);
    const token = (await w.resetTokenSentTo(ANN.email))!;

    const page = await w.routes.inject({ url: `/reset-password?token=${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(String(page.headers['content-security-policy'])).toMatch(/default-src 'none'.*form-action 'self'/);
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toContain(`<input type="hidden" name="token" value="${token}">`);
    expect(page.body).toContain('<label for="password">New password</label>');
    expect(page.body).not.toMatch(/<script|\son\w+=/i);

    const weak = await reset({ token, password: 'weak' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toMatchObject({ code: 'validation_failed', fields: [{ field: 'password' }] });

    const done = await reset({ token, password: NEW_PASSWORD });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ status: 'password_changed' });
    expect((await w.login(ANN.username, ANN.password)).Status).toBe(false);
    expect((await w.login(ANN.username, NEW_PASSWORD)).Status).toBe(true);
    // Earlier sessions ended: the token is refused as a credential.
    expect((await soapCall(w.app, 'GetUserSession', {}, { bearer: before.Data! })).status).toBe(401);

    const again = await reset({ token, password: 'another password 99' });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/already been used/),
    });
    expect((await w.login(ANN.username, 'another password 99')).Status).toBe(false);
    const reopened = await w.routes.inject({ url: `/reset-password?token=${token}` });
    expect(reopened.statusCode).toBe(400);
    expect(reopened.body).toContain('already been used');
    expect(reopened.body).not.toContain('<form');
  });

  it('refuses an expired link, an unknown one, and a link replaced by a newer one', async () => {
    await w.forgotPassword(ANN.username, ANN.email);
    const first = (await w.resetTokenSentTo(ANN.email))!;
    await w.forgotPassword(ANN.username, ANN.email);
    const second = (await w.resetTokenSentTo(ANN.email))!;
    expect((await reset({ token: first, password: 'replaced link 123' })).json().error.message).toMatch(
      /expired/,
    );
    w.advance(31);
    const expired = await reset({ token: second, password: 'expired link 123' });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.message).toMatch(/expired/);
    const unknown = await reset({ token: `pr_${'A'.repeat(43)}`, password: 'unknown link 123' });
    expect(unknown.json().error.message).toMatch(/not valid/);
    expect((await w.login(ANN.username, NEW_PASSWORD)).Status).toBe(true);
  });

  it('works as a plain HTML form post, refuses another origin, and a reset unlocks a locked user', async () => {
    await w.newUser('form.user', 'form@alpha.example');
    for (let i = 0; i < 10; i++) await w.login('form.user', `wrong ${i}`);
    expect((await w.login('form.user', ANN.password)).Status).toBe(false); // locked
    await w.forgotPassword('form.user', 'form@alpha.example');
    const token = (await w.resetTokenSentTo('form@alpha.example'))!;

    const cross = await reset(
      { token, password: NEW_PASSWORD, confirm: NEW_PASSWORD },
      {
        ...form,
        origin: 'https://evil.example',
      },
    );
    expect(cross.statusCode).toBe(403);
    const differ = await reset({ token, password: NEW_PASSWORD, confirm: 'something else 1' }, form);
    expect(differ.statusCode).toBe(400);
    expect(differ.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(differ.body).toContain('role="alert">The two passwords differ');
    expect(differ.body).toContain('aria-invalid="true"');
    const ok = await reset({ token, password: NEW_PASSWORD, confirm: NEW_PASSWORD }, form);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('Your password has been changed');
    // The dashboard's sign-in is a link away (issue 15).
    expect(ok.body).toContain('<a href="https://pay.example.test/dashboard">Sign in</a>');
    expect((await w.login('form.user', NEW_PASSWORD)).Status).toBe(true);
    const twice = await reset({ token, password: NEW_PASSWORD, confirm: NEW_PASSWORD }, form);
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain('already been used');
    expect(twice.body).toContain('>Back to sign in</a>');
    expect(
      (
        await w.routes.inject({
          method: 'POST',
          url: '/reset-password',
          headers: { 'content-type': 'text/plain' },
          payload: 'x',
        })
      ).statusCode,
    ).toBe(415);
  });

  it(`sends at most ${MAX_RESETS_PER_HOUR} links per user per hour, and still answers the same`, async () => {
    await w.newUser('busy.user', 'busy@alpha.example');
    const answers = new Set<string>();
    for (let i = 0; i < MAX_RESETS_PER_HOUR + 2; i++)
      answers.add((await w.forgotPassword('busy.user', 'busy@alpha.example')).body);
    await w.deps.notifier.flush();
    expect(answers.size).toBe(1);
    expect(await listOutbox(w.db, { to: 'busy@alpha.example' })).toHaveLength(MAX_RESETS_PER_HOUR);
    w.advance(61);
    await w.forgotPassword('busy.user', 'busy@alpha.example');
    await w.deps.notifier.flush();
    expect(await listOutbox(w.db, { to: 'busy@alpha.example' })).toHaveLength(MAX_RESETS_PER_HOUR + 1);
  });

  it('keeps the token out of an info-level request log', async () => {
    await w.forgotPassword(ANN.username, ANN.email);
    const token = (await w.resetTokenSentTo(ANN.email))!;
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (l: string) => lines.push(l) } });
    const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
    await app.register(passwordResetRoutes, { db: w.db, now: () => w.clock.now });
    try {
      expect((await app.inject({ url: `/reset-password?token=${token}` })).statusCode).toBe(200);
      await app.inject({ url: '/elsewhere?x=1' });
      expect(lines.some((l) => l.includes('/elsewhere'))).toBe(true); // the log works
      expect(lines.join('')).not.toContain(token);
    } finally {
      await app.close();
    }
  });
});
