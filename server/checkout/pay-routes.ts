/**
 * The checkout API for the widget and the hosted page (`/api/checkout/…`, JSON). Every answer is
 * `Cache-Control: no-store` (HDR-1); state-changing calls pass the CSRF guard (csrf.ts) before
 * their body is read. Pays are counted per IP and per session in the database, in the pay's first
 * transaction (pay.ts); loads per IP in this instance's memory (rate-limit.ts).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IdempotencyKey, SESSION_TOKEN_PATTERN } from '../../shared/checkout/fields.ts';
import { PayBody } from '../../shared/checkout/pay-schemas.ts';
import { WALLET_HEADER } from '../../shared/checkout/wallet-schemas.ts';
import { PayframeError } from '../errors.ts';
import type { Checkout } from './checkout.ts';
import { widgetRequestGuard } from './csrf.ts';
import type { CallOrigin } from './deps.ts';
import { fieldErrors, parseOr400 } from './field-errors.ts';
import type { Payer } from './gateway-calls.ts';
import { walletContact } from './otp.ts';
import { cancelSession, paySession, replayedAnswer } from './pay.ts';
import { CHALLENGE_ID } from './three-ds-results.ts';
import { enforceLimits } from './rate-limit.ts';
import { loadWidgetSession } from './session-view.ts';

export function originOf(request: FastifyRequest): CallOrigin {
  return { requestId: String(request.id), remoteAddress: request.ip, log: request.log };
}

function tokenOf(request: FastifyRequest): string {
  const token = (request.params as { token?: string }).token ?? '';
  if (!SESSION_TOKEN_PATTERN.test(token))
    throw new PayframeError('not_found', 'This checkout session does not exist.');
  return token;
}

type ValidPay =
  | { kind: 'pay'; token: string; key: string; body: PayBody; wallet: Payer['wallet'] }
  /** A saved-card retry whose credential has since ended: its key's stored answer (IDEM-2). */
  | { kind: 'replay'; json: string };

/**
 * The pay request's token, key, body and wallet contact, or the 400/401/404 it deserves, or the
 * stored answer of a saved-card retry whose credential has since ended (IDEM-2, not a 401).
 */
async function validPay(deps: Checkout['deps'], request: FastifyRequest): Promise<ValidPay> {
  const token = tokenOf(request);
  const key = IdempotencyKey.safeParse(request.headers['idempotency-key']);
  if (!key.success) {
    throw new PayframeError(
      'invalid_request',
      key.error.issues[0]?.message,
      fieldErrors(key.error).map((f) => ({ ...f, field: 'Idempotency-Key' })),
    );
  }
  const body = parseOr400(PayBody, request.body);
  let wallet: Payer['wallet'];
  if (body.method === 'saved') {
    // A saved card needs the wallet credential of this session (a verified one-time code).
    const header = request.headers[WALLET_HEADER];
    wallet =
      typeof header === 'string' ? ((await walletContact(deps, token, header)) ?? undefined) : undefined;
    if (!wallet) {
      const replay = await replayedAnswer(deps, token, key.data, body);
      if (replay) return { kind: 'replay', json: replay.json };
      throw new PayframeError('unauthorized', 'Verify a one-time code to use the saved cards.');
    }
  }
  return { kind: 'pay', token, key: key.data, body, wallet };
}

export async function checkoutApiRoutes(
  app: FastifyInstance,
  options: { checkout: Checkout },
): Promise<void> {
  const deps = options.checkout.deps;
  app.addHook('onRequest', widgetRequestGuard(deps.publicOrigin));
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  app.get('/api/checkout/sessions/:token', async (request, reply) => {
    const token = tokenOf(request);
    deps.memoryLimits.enforce(reply, `read:ip:${request.ip}`, deps.limits.readPerIp, deps.now());
    return loadWidgetSession(deps, originOf(request), token);
  });

  // Validation first: a 400 does not consume the key (IDEM-6). A request that passes it is counted
  // per address and per session in the pay's first transaction, with the key (pay.ts); one that
  // does not — a body that is not JSON, a bad token, key or body, a saved card without its
  // credential — is counted per address only, so junk from anywhere cannot use up a session's pays
  // before the shopper's own.
  // A body Fastify could not read (not JSON, too large) never reaches the handler: counted here, per
  // address, then answered by the app's error handler (429 once over the limit). A request the CSRF
  // guard refused is not: a cross-site page could send those from the shopper's own browser.
  const errorHandler = async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.code.startsWith('FST_ERR_CTP_'))
      await enforceLimits(deps.db, reply, [[`pay:ip:${request.ip}`, deps.limits.payPerIp]], deps.now());
    throw error;
  };
  app.post('/api/checkout/sessions/:token/pay', { errorHandler }, async (request, reply) => {
    let valid: ValidPay;
    try {
      valid = await validPay(deps, request);
    } catch (err) {
      await enforceLimits(deps.db, reply, [[`pay:ip:${request.ip}`, deps.limits.payPerIp]], deps.now());
      throw err;
    }
    if (valid.kind === 'replay') {
      reply.header('idempotent-replayed', 'true');
      return reply.code(200).type('application/json; charset=utf-8').send(valid.json);
    }
    const { token, key, body, wallet } = valid;
    const answer = await paySession(deps, originOf(request), token, key, body, wallet);
    if (answer.replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(200).type('application/json; charset=utf-8').send(answer.json);
  });

  // A 3-D Secure challenge's result, for the widget to poll on its own origin (three-ds-results.ts).
  app.get('/api/checkout/sessions/:token/three-ds/:id', async (request, reply) => {
    const token = tokenOf(request);
    deps.memoryLimits.enforce(reply, `read:ip:${request.ip}`, deps.limits.readPerIp, deps.now());
    const id = (request.params as { id?: string }).id ?? '';
    // Only a challenge made for this very session (issue 13 §5).
    const found = CHALLENGE_ID.test(id) && deps.threeDs ? await deps.threeDs.result(id, token) : null;
    if (!found) throw new PayframeError('not_found', 'There is no such 3-D Secure challenge.');
    return found;
  });

  // The shopper gave up: the session can no longer be paid (refused while a payment is in flight).
  app.post('/api/checkout/sessions/:token/cancel', async (request, reply) => {
    const token = tokenOf(request);
    await enforceLimits(deps.db, reply, [[`pay:ip:${request.ip}`, deps.limits.payPerIp]], deps.now());
    return cancelSession(deps, originOf(request), token);
  });
}
