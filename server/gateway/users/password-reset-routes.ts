/**
 * The password reset link's target (docs/gateway-users.md):
 *   GET  /reset-password?token=pr_…   a form (HTML, no script) for the new password
 *   POST /reset-password              `{token, password}` as JSON → JSON; or the form
 *                                     (`application/x-www-form-urlencoded`, with `confirm`) → HTML
 *
 * A token sets a password once: a second use is 400 `invalid_request` saying the link was used.
 * A weak password is refused before the token is spent. Requests from another origin are refused
 * (CSRF). The token is in the URL, so these routes log at `warn` only: request lines with it
 * never reach an info-level log.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.ts';
import { PayframeError } from '../../errors.ts';
import { isSameOrigin } from '../three-ds/three-ds-routes.ts';
import { recordAudit, userResource } from './audit.ts';
import { RESET_TOKEN_MESSAGES, resetPassword, resetTokenState } from './password-reset.ts';
import { renderResetDone, renderResetForm, renderResetUnusable } from './reset-password-page.ts';

export interface PasswordResetRoutesOptions {
  db: Database;
  now?: () => Date;
  /** The dashboard's sign-in page, linked from the pages after a reset and from a dead link. */
  signInUrl?: string;
}

const BODY_LIMIT = 4096;
const PASSWORDS_DIFFER = 'The two passwords differ. Type the same new password twice.';

function pageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function field(body: unknown, name: string): string {
  const v = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof v === 'string' ? v : '';
}

export async function passwordResetRoutes(
  app: FastifyInstance,
  opts: PasswordResetRoutesOptions,
): Promise<void> {
  const { db, signInUrl } = opts;
  const now = opts.now ?? (() => new Date());

  // This scope reads small JSON bodies and HTML form posts only; anything else is 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    app.getDefaultJsonParser('error', 'error'),
  );
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  function page(reply: FastifyReply, status: number, render: (nonce: string) => string): FastifyReply {
    const nonce = crypto.randomBytes(16).toString('base64');
    return reply
      .code(status)
      .header('content-security-policy', pageCsp(nonce))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(render(nonce));
  }

  app.get<{ Querystring: { token?: string } }>(
    '/reset-password',
    { logLevel: 'warn' },
    async (request, reply) => {
      const token = request.query.token ?? '';
      const state = await resetTokenState(db, token, now());
      if (state !== 'valid')
        return page(reply, 400, (n) => renderResetUnusable(n, RESET_TOKEN_MESSAGES[state], signInUrl));
      return page(reply, 200, (n) => renderResetForm(n, token));
    },
  );

  app.post('/reset-password', { logLevel: 'warn' }, async (request: FastifyRequest, reply) => {
    const isForm = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ?? false;
    if (!isSameOrigin(request)) {
      if (isForm)
        return page(reply, 403, (n) => renderResetUnusable(n, 'This form was sent from another site.'));
      throw new PayframeError('forbidden', 'Password resets are accepted from this site only.');
    }
    const token = field(request.body, 'token');
    const password = field(request.body, 'password');
    const confirm = isForm ? field(request.body, 'confirm') : password;
    try {
      if (confirm !== password) {
        throw new PayframeError('validation_failed', PASSWORDS_DIFFER, [
          { field: 'confirm', code: 'mismatch', message: PASSWORDS_DIFFER },
        ]);
      }
      const at = now();
      const userId = await resetPassword(db, token, password, at);
      await recordAudit(db, {
        actor: userResource(userId),
        action: 'user.password_reset',
        resource: userResource(userId),
        outcome: 'success',
        origin: request.ip,
        at,
      });
    } catch (err) {
      if (!isForm || !(err instanceof PayframeError)) throw err;
      // The form again with the problem when the link still works; else why it does not.
      if (err.code === 'validation_failed')
        return page(reply, 400, (n) => renderResetForm(n, token, err.message));
      return page(reply, 400, (n) => renderResetUnusable(n, err.message, signInUrl));
    }
    if (isForm) return page(reply, 200, (n) => renderResetDone(n, signInUrl));
    reply.header('cache-control', 'no-store');
    return { status: 'password_changed', message: 'Your password has been changed. You can now sign in.' };
  });
}
