/**
 * Payment links (issue 15 "Payment links"): a checkout session made by a dashboard user, payable
 * for longer than a shop's checkout (1 to 30 days), shared as its address or a QR code, and e-mailed
 * to the customer when the user gives an address. The gateway's session is the only copy (DESIGN.md
 * §16): the list is ListCheckoutSessions, the state GetCheckoutSession, as for merchant REST.
 *
 *   GET  /payment-links?after=<token>   → {links, hasMore}, newest first
 *   POST /payment-links                 {amount, orderNumber, email?, description?, expiresInDays}
 *                                       → 201 {link, qrSvg}
 *   POST /payment-links/:token/cancel   → {link}; 409 session_paid when it was paid
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Amount, noCardNumber, SESSION_TOKEN_PATTERN, text } from '../../shared/checkout/fields.ts';
import { MAX_DESCRIPTION } from '../../shared/checkout/line-items.ts';
import { cancelOpenSession, gatewayFieldError } from '../checkout/checkout-sessions-routes.ts';
import { parseOr400 } from '../checkout/field-errors.ts';
import { plain } from '../checkout/wallet-routes.ts';
import { PayframeError } from '../errors.ts';
import type { NotificationMessage } from '../notify/notifier.ts';
import { qrSvg } from './qr.ts';
import { type DashboardDeps, type Verified, verified } from './user-context.ts';
import { type Link, linkView } from './views.ts';

/** The expiries the dashboard offers, in days. */
export const LINK_EXPIRY_DAYS = [1, 7, 14, 30] as const;

const CreateLinkBody = z.strictObject({
  amount: Amount,
  orderNumber: text('orderNumber', 64),
  email: z.email('email must be an e-mail address.').max(254).check(noCardNumber('email')).optional(),
  description: text('description', MAX_DESCRIPTION).optional(),
  expiresInDays: z.union(
    LINK_EXPIRY_DAYS.map((d) => z.literal(d)),
    { error: `expiresInDays must be one of ${LINK_EXPIRY_DAYS.join(', ')}.` },
  ),
});

const ListLinksQuery = z.strictObject({
  after: z.string().regex(SESSION_TOKEN_PATTERN, 'after must be a payment link token.').optional(),
});

/** Links a page holds. */
const PAGE_SIZE = 25;

function tokenOf(request: FastifyRequest): string {
  const token = (request.params as { token?: string }).token ?? '';
  if (!SESSION_TOKEN_PATTERN.test(token))
    throw new PayframeError('not_found', 'This payment link does not exist.');
  return token;
}

/** One of the merchant's payment links; a shop's checkout session is not one (404, like none). */
async function readLink(deps: DashboardDeps, user: Verified, token: string): Promise<Link> {
  const detail = await deps.checkout.port.GetCheckoutSession({ token }, user.context);
  if (!detail.PaymentLink) throw new PayframeError('not_found', 'This payment link does not exist.');
  return linkView(detail, deps.checkout.publicUrl);
}

/** A plain e-mail: who asks, how much, for what, the address, until when. */
export function linkMessage(link: Link, merchantName: string | null): NotificationMessage {
  const merchant = plain(merchantName) ?? 'A Payframe merchant';
  const amount = `${link.amount}${link.currency ? ` ${link.currency}` : ''}`;
  const lines = [
    `${merchant} asks you to pay ${amount} for order ${link.orderNumber ?? ''}.`,
    ...(link.description ? ['', link.description] : []),
    '',
    `Pay here: ${link.url}`,
    '',
    `This link works until ${link.expiresAt.slice(0, 16).replace('T', ' ')} UTC.`,
  ];
  return {
    channel: 'email',
    to: link.email ?? '',
    purpose: 'invoice',
    subject: `Payment request from ${merchant}`,
    text: `${lines.join('\n')}\n`,
  };
}

async function createLink(deps: DashboardDeps, request: FastifyRequest) {
  const user = await verified(deps, request);
  const body = parseOr400(CreateLinkBody, request.body);
  const res = await deps.checkout.port.CreateHostedPayment(
    {
      request: {
        MerchantID: user.session.MerchantID,
        Amount: body.amount,
        OrderNumber: body.orderNumber,
        Email: body.email,
        Description: body.description,
        ExpiresInMinutes: body.expiresInDays * 1440,
        PaymentLink: true,
      },
    },
    user.context,
  );
  if (!res.Success || !res.Token) {
    throw new PayframeError('validation_failed', undefined, [
      gatewayFieldError(res.ErrorField, res.Message ?? 'The payment link was refused.'),
    ]);
  }
  const link = await readLink(deps, user, res.Token);
  if (link.email) {
    deps.notifier.sendLater(
      async () => linkMessage(link, user.session.MerchantName ?? null),
      // Never the message: it holds the customer's address.
      (err) =>
        request.log.warn(
          { err: { name: (err as Error)?.name }, token: link.token },
          'payment link not e-mailed',
        ),
    );
  }
  return { link, qrSvg: await qrSvg(link.url) };
}

export async function linkRoutes(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  app.get('/payment-links', async (request) => {
    const user = await verified(deps, request);
    const query = parseOr400(ListLinksQuery, request.query ?? {});
    const page = await deps.checkout.port.ListCheckoutSessions(
      { limit: PAGE_SIZE, startingAfter: query.after, paymentLink: true },
      user.context,
    );
    return {
      links: (page.Sessions ?? []).map((s) => linkView(s, deps.checkout.publicUrl)),
      hasMore: page.HasMore,
    };
  });
  app.post('/payment-links', async (request, reply) => reply.code(201).send(await createLink(deps, request)));
  app.post('/payment-links/:token/cancel', async (request) => {
    const user = await verified(deps, request);
    const token = tokenOf(request);
    parseOr400(z.strictObject({}), request.body);
    await readLink(deps, user, token); // a link of this merchant's, not a shop's checkout
    await cancelOpenSession(deps.checkout, user.context, token);
    return { link: await readLink(deps, user, token) };
  });
}
