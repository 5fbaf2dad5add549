/**
 * Webhooks in the dashboard's Developers page (issue 16; docs/dashboard.md "Developers"). The
 * endpoint and signing secret are the gateway's (merchant configuration), changed through the port as
 * the signed-in user; the deliveries are the checkout's own table (server/checkout/webhooks.ts), read
 * and sent here in-process as the payment page reads its session's deliveries, each time after the
 * gateway has answered for the user: GetWebhookSettings (Admin) before a read,
 * AuthorizeWebhookDelivery (Admin, audited) before a resend or a test event. A Viewer or Staff user
 * gets the gateway's 403 and reads nothing.
 *
 *   GET  /webhooks                          settings + the newest deliveries
 *   GET  /webhooks/deliveries?after=&limit= a page of deliveries, newest first
 *   GET  /webhooks/deliveries/:id           one delivery with its body and the answer's first 1 KB
 *   POST /webhooks/endpoint {url}           SetWebhookEndpoint ('' clears) (Owner)
 *   POST /webhooks/secret/roll {}           RollWebhookSecret: the secret, this once (Owner)
 *   POST /webhooks/deliveries/:id/resend {} AuthorizeWebhookDelivery Resend, then a new attempt now
 *   POST /webhooks/test {}                  AuthorizeWebhookDelivery TestEvent, then payframe.test now
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { OperationResult } from '../../shared/contract/service.ts';
import { checkUrlAnyOrigin, URL_PROBLEM_MESSAGES } from '../../shared/return-url.ts';
import { parseOr400 } from '../checkout/field-errors.ts';
import {
  resendWebhook,
  sendTestWebhook,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  webhookDeliveryDetail,
  webhookDeliveryPage,
} from '../checkout/webhook-deliveries.ts';
import { PayframeError } from '../errors.ts';
import { type DashboardDeps, type Verified, verified } from './user-context.ts';

const PAGE_SIZE = 20;
const EVENT_ID = /^evt_[A-Za-z0-9_-]{1,64}$/;

const PageQuery = z.strictObject({
  after: z.string().regex(EVENT_ID, 'after must be an event id.').optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
const EndpointBody = z.strictObject({ url: z.string().max(4096) });
const EmptyBody = z.strictObject({});

type Settings = OperationResult<'GetWebhookSettings'>;

function settingsView(s: Settings) {
  return {
    endpointUrl: s.EndpointUrl ?? null,
    secretCreatedAt: s.SecretCreatedAt ?? null,
    previousSecretValidUntil: s.PreviousSecretValidUntil ?? null,
  };
}

export function deliveryView(d: WebhookDelivery) {
  return {
    id: d.id,
    event: d.type,
    status: d.state,
    statusCode: d.lastStatus,
    durationMs: d.lastDurationMs,
    attempts: d.attempts,
    createdAt: d.createdAt.toISOString(),
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    error: d.lastError,
    url: d.url,
  };
}

function detailView(d: WebhookDeliveryDetail) {
  return { ...deliveryView(d), body: d.payload, responseHead: d.responseHead };
}

/** The gateway answers for the user first: a role below Admin is its 403, before any read. */
async function allowedToRead(deps: DashboardDeps, request: FastifyRequest) {
  const user = await verified(deps, request);
  const settings = await deps.checkout.port.GetWebhookSettings({}, user.context);
  return { user, settings };
}

function eventIdOf(request: FastifyRequest): string {
  const id = (request.params as { id?: string }).id ?? '';
  if (!EVENT_ID.test(id)) throw new PayframeError('not_found', 'This delivery does not exist.');
  return id;
}

async function page(deps: DashboardDeps, user: Verified, query: unknown) {
  const q = parseOr400(PageQuery, query ?? {});
  const p = await webhookDeliveryPage(deps.checkout.db, user.session.MerchantID, {
    after: q.after ?? null,
    limit: q.limit ?? PAGE_SIZE,
  });
  return { deliveries: p.deliveries.map(deliveryView), hasMore: p.hasMore };
}

async function permit(
  deps: DashboardDeps,
  user: Verified,
  kind: 'Resend' | 'TestEvent',
  eventID?: string,
): Promise<string | null> {
  const r = await deps.checkout.port.AuthorizeWebhookDelivery({ kind, eventID }, user.context);
  if (!r.Success) throw new PayframeError('invalid_request', r.Message ?? 'Not allowed.');
  return r.EndpointUrl ?? null;
}

export async function webhookRoutes(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.get('/webhooks', async (request) => {
    const { user, settings } = await allowedToRead(deps, request);
    return { settings: settingsView(settings), ...(await page(deps, user, {})) };
  });

  app.get('/webhooks/deliveries', async (request) => {
    const { user } = await allowedToRead(deps, request);
    return page(deps, user, request.query);
  });

  app.get('/webhooks/deliveries/:id', async (request) => {
    const { user } = await allowedToRead(deps, request);
    const d = await webhookDeliveryDetail(deps.checkout.db, user.session.MerchantID, eventIdOf(request));
    if (!d) throw new PayframeError('not_found', 'This delivery does not exist.');
    return { delivery: detailView(d) };
  });

  app.post('/webhooks/endpoint', async (request) => {
    const user = await verified(deps, request);
    const { url } = parseOr400(EndpointBody, request.body);
    // Checked here too, so the page names the field whichever way the gateway is reached.
    if (url.trim()) {
      const checked = checkUrlAnyOrigin(url.trim());
      if ('problem' in checked) {
        const message = `url ${URL_PROBLEM_MESSAGES[checked.problem]}`;
        throw new PayframeError('validation_failed', message, [{ field: 'url', code: 'invalid', message }]);
      }
    }
    const settings = await deps.checkout.port.SetWebhookEndpoint({ endpointUrl: url.trim() }, user.context);
    return { settings: settingsView(settings) };
  });

  app.post('/webhooks/secret/roll', async (request) => {
    const user = await verified(deps, request);
    parseOr400(EmptyBody, request.body ?? {});
    const r = await deps.checkout.port.RollWebhookSecret({}, user.context);
    if (!r.Success || !r.Secret) throw new PayframeError('internal', r.Message ?? 'No secret was made.');
    return { secret: r.Secret, previousSecretValidUntil: r.PreviousSecretValidUntil ?? null };
  });

  app.post('/webhooks/deliveries/:id/resend', async (request) => {
    const user = await verified(deps, request);
    const id = eventIdOf(request);
    parseOr400(EmptyBody, request.body ?? {});
    await permit(deps, user, 'Resend', id);
    const d = await resendWebhook(deps.checkout, user.session.MerchantID, id);
    if (!d) throw new PayframeError('not_found', 'This delivery does not exist.');
    return { delivery: detailView(d) };
  });

  app.post('/webhooks/test', async (request) => {
    const user = await verified(deps, request);
    parseOr400(EmptyBody, request.body ?? {});
    const url = await permit(deps, user, 'TestEvent');
    if (!url)
      throw new PayframeError('invalid_request', 'Set a webhook endpoint before sending a test event.');
    return { delivery: detailView(await sendTestWebhook(deps.checkout, user.session.MerchantID, url)) };
  });
}
