/**
 * `Idempotency-Key` on `POST /v1/checkout-sessions` (issue 14 §11; docs/merchant-guide.md "Retries"):
 * a merchant server that retries after a timeout gets the session it created, not a second one.
 * The key is the pay path's (idempotency.ts): claimed in the database with INSERT … ON CONFLICT DO
 * NOTHING, so it holds across instances and restarts, on PGlite and PostgreSQL alike; kept at least
 * 24 hours (KEY_RETENTION_MS, pruned with the pay keys). Scoped to the merchant.
 *
 * - same key, same body → the first answer byte for byte (201, `Location`), `Idempotent-Replayed: true`;
 * - same key, another body → 422 `idempotency_mismatch`; while the first runs → 409 `conflict`;
 * - a 400 (an invalid body or key) or a refused session does not use the key up.
 *
 * A replay is answered only after the gateway has read the session as the caller, and a mismatch or
 * a key in flight only after the gateway has checked the caller's credential: nobody but its
 * merchant learns a stored answer, or that a key was used.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CreatedCheckoutSession } from '../../shared/checkout/session-schemas.ts';
import { IdempotencyKey } from '../../shared/checkout/fields.ts';
import { PayframeError } from '../errors.ts';
import type { CheckoutDeps } from './deps.ts';
import { fieldErrors } from './field-errors.ts';
import { readSession } from './gateway-calls.ts';
import { originOf } from './pay-routes.ts';
import { claimKey, completeKey, fingerprintOf, type KeyScope, releaseKey } from './idempotency.ts';

export const CREATE_ENDPOINT = 'POST /v1/checkout-sessions';
/** A claim older than this was left by a request that died (a create takes seconds at most). */
const ABANDONED_MS = 2 * 60 * 1000;

export const REPLAYED_HEADER = 'idempotent-replayed';

function keyOf(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  const key = IdempotencyKey.safeParse(header);
  if (!key.success) {
    throw new PayframeError(
      'invalid_request',
      key.error.issues[0]?.message,
      fieldErrors(key.error).map((f) => ({ ...f, field: 'Idempotency-Key' })),
    );
  }
  return key.data;
}

function sendCreated(reply: FastifyReply, created: CreatedCheckoutSession | string, token: string) {
  return reply
    .code(201)
    .header('location', `/v1/checkout-sessions/${token}`)
    .type('application/json; charset=utf-8')
    .send(typeof created === 'string' ? created : JSON.stringify(created));
}

/**
 * Runs `create` once per merchant and key (or every time without a key) and answers 201. `body` is
 * the validated request: its fingerprint, never the body itself, is stored.
 */
export async function createOnce(
  deps: CheckoutDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  merchant: { merchantId: string; authorization: string },
  body: unknown,
  create: () => Promise<CreatedCheckoutSession>,
): Promise<FastifyReply> {
  const key = keyOf(request);
  if (key === null) {
    const created = await create();
    return sendCreated(reply, created, created.token);
  }
  const scope: KeyScope = { sessionToken: `merchant:${merchant.merchantId}`, endpoint: CREATE_ENDPOINT, key };
  const fingerprint = fingerprintOf(deps.secret, CREATE_ENDPOINT, body);
  const now = deps.now();
  let claim = await claimKey(deps.db, scope, fingerprint, now);
  if (claim.kind === 'in_flight' && now.getTime() - claim.since.getTime() > ABANDONED_MS) {
    await releaseKey(deps.db, scope);
    claim = await claimKey(deps.db, scope, fingerprint, now);
  }
  if (claim.kind === 'mismatch' || claim.kind === 'in_flight') {
    // Nothing about a key is told before the caller is proven: the gateway checks the credential
    // (the smallest authenticated operation; a wrong one is 401 here, as on every call).
    await deps.port.Verify3DSecureMerchant(
      { merchantID: merchant.merchantId },
      deps.contexts.merchant(originOf(request), merchant.authorization),
    );
  }
  switch (claim.kind) {
    case 'mismatch':
      throw new PayframeError(
        'idempotency_mismatch',
        'This Idempotency-Key was used with another request body.',
      );
    case 'in_flight':
      throw new PayframeError('conflict', 'A request with this Idempotency-Key is still running.');
    case 'replay': {
      const token = (JSON.parse(claim.body) as CreatedCheckoutSession).token;
      const context = deps.contexts.merchant(originOf(request), merchant.authorization);
      // The gateway checks the credential and shows a merchant its own sessions only.
      if (!(await readSession(deps, context, token)))
        throw new PayframeError('not_found', 'This checkout session does not exist.');
      reply.header(REPLAYED_HEADER, 'true');
      return sendCreated(reply, claim.body, token);
    }
    case 'claimed':
      break;
  }
  let created: CreatedCheckoutSession;
  try {
    created = await create();
  } catch (err) {
    await releaseKey(deps.db, scope);
    throw err;
  }
  const json = JSON.stringify(created);
  await completeKey(deps.db, scope, 201, json, deps.now());
  return sendCreated(reply, json, created.token);
}
