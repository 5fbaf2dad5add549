/**
 * The widget's wallet API (`/api/checkout/sessions/:token/wallet/…`, JSON; DESIGN.md §9;
 * security-requirements.md §4 OTP-1…15): send a one-time code, verify it for a wallet credential,
 * list and remove saved cards. Same CSRF guard, `no-store` and database rate limits as pay-routes.
 * Codes come from the gateway's SendVerificationCode (service credential), are stored only as HMACs
 * (otp.ts) and go out through the notifier after the answer (`sendLater`): a code never reaches the
 * browser, and the answer is the same whether or not the contact holds a wallet (OTP-7).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseExpiry } from '../../shared/card/expiry.ts';
import { hasControlCharacters, SESSION_TOKEN_PATTERN } from '../../shared/checkout/fields.ts';
import {
  normalEmail,
  normalPhone,
  WALLET_HEADER,
  type WalletCardsResponse,
  WalletRemoveBody,
  WalletSendCodeBody,
  type WalletSendCodeResponse,
  WalletVerifyBody,
  type WalletVerifyResponse,
} from '../../shared/checkout/wallet-schemas.ts';
import { PayframeError } from '../errors.ts';
import { fill, type ShopperLang, shopperLang, shopperTexts } from '../i18n/index.ts';
import type { NotificationMessage, Notifier } from '../notify/notifier.ts';
import type { Checkout } from './checkout.ts';
import { widgetRequestGuard } from './csrf.ts';
import type { CheckoutDeps } from './deps.ts';
import { readSessionAsService } from './gateway-calls.ts';
import {
  type Contact,
  createVerification,
  DEFAULT_WALLET_LIMITS,
  destinationBucket,
  OTP_TTL_MS,
  revokeWalletTokens,
  verifyCode,
  walletContact,
  type WalletLimits,
} from './otp.ts';
import { parseOr400 } from './field-errors.ts';
import { originOf } from './pay-routes.ts';
import { enforceLimits, hit } from './rate-limit.ts';

/** The rate-counter bucket of the global SMS budget (rate-limit.ts `smsSendsGlobal`). */
export const SMS_BUDGET_BUCKET = 'otp:send:sms:global';

export interface WalletRoutesOptions {
  checkout: Checkout;
  /** Delivers the codes (app.ts: `gateway.deps.notifier`). */
  notifier: Notifier;
  limits?: Partial<WalletLimits>;
}

function tokenOf(request: FastifyRequest): string {
  const token = (request.params as { token?: string }).token ?? '';
  if (!SESSION_TOKEN_PATTERN.test(token))
    throw new PayframeError('not_found', 'This checkout session does not exist.');
  return token;
}

/** "a•••@example.com", "•••• 1001": enough for the shopper to recognise, nothing more. */
export function maskContact(c: Contact): string {
  if (c.channel === 'sms') return `•••• ${c.contact.slice(-4)}`;
  const at = c.contact.lastIndexOf('@');
  return `${c.contact.slice(0, 1)}•••${c.contact.slice(at)}`;
}

/** Merchant text for a message: one line, no control characters, bounded; null when none. */
export function plain(value: string | null | undefined): string | null {
  const v = [...(value ?? '')]
    .map((ch) => (hasControlCharacters(ch) ? ' ' : ch))
    .join('')
    .trim()
    .slice(0, 100);
  return v || null;
}

/** The code's e-mail or SMS, in the shopper's language (server/i18n). */
function otpMessage(
  c: Contact,
  code: string,
  merchant: string | null,
  expiresAt: Date,
  lang: ShopperLang,
): NotificationMessage {
  const t = shopperTexts(lang);
  const vars = {
    code,
    merchant: merchant ?? t.otpMerchant,
    minutes: Math.round(OTP_TTL_MS / 60_000),
    until: `${expiresAt.toISOString().slice(11, 16)} UTC`,
  };
  if (c.channel === 'sms') {
    return { channel: 'sms', to: c.contact, purpose: 'otp', text: fill(t.otpSms, vars) };
  }
  return {
    channel: 'email',
    to: c.contact,
    purpose: 'otp',
    subject: fill(t.otpSubject, vars),
    text: fill(t.otpEmail, vars),
  };
}

export async function walletRoutes(app: FastifyInstance, options: WalletRoutesOptions): Promise<void> {
  const deps: CheckoutDeps = options.checkout.deps;
  const notifier = options.notifier;
  const limits: WalletLimits = { ...DEFAULT_WALLET_LIMITS, ...options.limits };
  const base = '/api/checkout/sessions/:token/wallet';

  app.addHook('onRequest', widgetRequestGuard(deps.publicOrigin));
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  /** The contact a wallet credential proves on this (still open) session; 401 otherwise. */
  async function provenContact(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
  ): Promise<Contact> {
    await enforceLimits(deps.db, reply, [[`wallet:ip:${request.ip}`, limits.walletPerIp]], deps.now());
    const header = request.headers[WALLET_HEADER];
    const contact = typeof header === 'string' ? await walletContact(deps, token, header) : null;
    if (!contact) throw new PayframeError('unauthorized', 'Verify a one-time code to use the saved cards.');
    const session = await readSessionAsService(deps, originOf(request), token);
    if (session?.status !== 'open') {
      // The wallet credential ends with the session (SESS-2).
      await revokeWalletTokens(deps, token);
      throw new PayframeError('unauthorized', 'This checkout session is no longer open.');
    }
    return contact;
  }

  /** The session, when it is open; else 404, or 409 `session_paid` / `_expired` / `_canceled`. */
  async function openSessionOr409(request: FastifyRequest, token: string) {
    const session = await readSessionAsService(deps, originOf(request), token);
    if (!session) throw new PayframeError('not_found', 'This checkout session does not exist.');
    const status = session.status;
    if (status !== 'open') {
      await revokeWalletTokens(deps, token);
      throw new PayframeError(
        status === 'paid' ? 'session_paid' : status === 'expired' ? 'session_expired' : 'session_canceled',
      );
    }
    return session;
  }

  function byContact(c: Contact): { email: string | undefined; phoneNumber: string | undefined } {
    // Only the proven contact: the other one would widen the wallet (gateway-wallet-codes.md).
    return c.channel === 'email'
      ? { email: c.contact, phoneNumber: undefined }
      : { email: undefined, phoneNumber: c.contact };
  }

  app.post(`${base}/send-code`, async (request, reply) => {
    const token = tokenOf(request);
    await enforceLimits(
      deps.db,
      reply,
      [
        [`otp:send:ip:${request.ip}`, limits.sendPerIp],
        [`otp:send:session:${token}`, limits.sendPerSession],
      ],
      deps.now(),
    );
    const body = parseOr400(WalletSendCodeBody, request.body);
    const origin = originOf(request);
    const session = await openSessionOr409(request, token);

    // The contacts asked for; with none, the session's own (invalid ones left out).
    const asked = body.email !== undefined || body.phone !== undefined;
    const email = asked ? body.email : (session.shopper.email ?? undefined);
    const phone = asked ? body.phone : (session.shopper.phone ?? undefined);
    const contacts: Contact[] = [];
    const e = email === undefined ? null : normalEmail(email);
    const p = phone === undefined ? null : normalPhone(phone);
    if (e) contacts.push({ channel: 'email', contact: e });
    if (p) contacts.push({ channel: 'sms', contact: p });
    if (contacts.length === 0) {
      throw new PayframeError('validation_failed', undefined, [
        { field: 'email', code: 'contact_required', message: 'Give an e-mail address or a phone number.' },
      ]);
    }
    // Counted per destination whether or not it holds a wallet (OTP-9), so a 429 says nothing either.
    await enforceLimits(
      deps.db,
      reply,
      contacts.map((c) => [destinationBucket(deps.secret, c), limits.sendPerDestination] as const),
      deps.now(),
    );
    if (contacts.some((c) => c.channel === 'sms')) {
      // The global SMS budget (SMS pumping spreads over numbers, addresses and sessions).
      const wait = await hit(deps.db, SMS_BUDGET_BUCKET, deps.limits.smsSendsGlobal, deps.now());
      if (wait > 0) {
        request.log.warn(
          { alert: 'sms_budget_exhausted', limit: deps.limits.smsSendsGlobal.limit },
          'global SMS budget exhausted: one-time codes by SMS are refused until the window ends',
        );
        reply.header('retry-after', String(wait));
        throw new PayframeError('rate_limited', undefined, undefined, { retryAfterSeconds: wait });
      }
    }

    const codes = await deps.port.SendVerificationCode(
      {
        email: contacts.find((c) => c.channel === 'email')?.contact,
        phoneNumber: contacts.find((c) => c.channel === 'sms')?.contact,
      },
      deps.contexts.service(origin),
    );
    const withCodes = contacts.map((c) => {
      const code = c.channel === 'email' ? codes.OneTimePasswordForEmail : codes.OneTimePasswordForPhone;
      return { ...c, code: code && /^\d{6,}$/.test(code) ? code : null };
    });
    const { verificationId, expiresAt } = await createVerification(deps, token, withCodes);
    const merchant = plain(session.merchantName);
    // The form's language when it says it; else chosen as the page chooses (session, browser).
    const lang = shopperLang({
      page: body.lang,
      locale: session.locale,
      acceptLanguage: request.headers['accept-language'],
    });
    // After the answer, so its timing does not depend on whether a message goes out (OTP-7).
    for (const c of withCodes) {
      const code = c.code;
      if (code === null) continue;
      notifier.sendLater(
        async () => otpMessage(c, code, merchant, expiresAt, lang),
        // Never the message: it holds the code.
        (err) =>
          request.log.warn(
            { err: { name: (err as Error)?.name }, channel: c.channel, verificationId },
            'one-time code not delivered',
          ),
      );
    }
    const answer: WalletSendCodeResponse = {
      verificationId,
      channels: contacts.map((c) => ({ channel: c.channel, to: maskContact(c) })),
    };
    return reply.code(202).send(answer);
  });

  app.post(`${base}/verify`, async (request, reply) => {
    const token = tokenOf(request);
    await enforceLimits(
      deps.db,
      reply,
      [
        [`otp:verify:ip:${request.ip}`, limits.verifyPerIp],
        [`otp:verify:session:${token}`, limits.verifyPerSession],
      ],
      deps.now(),
    );
    const body = parseOr400(WalletVerifyBody, request.body);
    // A closed session (paid, expired, canceled) issues no credential, and ends those it issued
    // (SESS-2); the code is left as it was.
    await openSessionOr409(request, token);
    const outcome = await verifyCode(deps, token, body.verificationId, body.code);
    if (!outcome.ok) {
      throw new PayframeError('validation_failed', undefined, [
        outcome.reason === 'wrong'
          ? {
              field: 'code',
              code: 'code_invalid',
              message: 'This code is not right. Check it and try again.',
            }
          : {
              field: 'code',
              code: 'code_expired',
              message: 'This code can no longer be used. Ask for a new one.',
            },
      ]);
    }
    const answer: WalletVerifyResponse = {
      walletToken: outcome.walletToken,
      expiresAt: outcome.expiresAt.toISOString(),
    };
    return reply.code(200).send(answer);
  });

  app.get(`${base}/cards`, async (request, reply) => {
    const token = tokenOf(request);
    const contact = await provenContact(request, reply, token);
    const cards = await deps.port.GetStoredCards(
      byContact(contact),
      deps.contexts.service(originOf(request)),
    );
    const answer: WalletCardsResponse = {
      cards: (cards ?? []).map((card) => {
        const digits = (card.MaskedCardNumber ?? '').replace(/\D/g, '').slice(-4);
        return {
          tokenGuid: card.TokenGuid ?? '',
          maskedCardNumber: `•••• ${digits}`,
          cardType: card.CardType ?? null,
          nameOnCard: card.NameOnCard ?? null,
          displayName: card.DisplayName ?? null,
          // 'MMYY' from Payframe's gateway; absent from a Transaction Service without the field.
          expiry: card.ExpirationDate ? parseExpiry(card.ExpirationDate) : null,
        };
      }),
    };
    return answer;
  });

  app.post(`${base}/remove`, async (request, reply) => {
    const token = tokenOf(request);
    const contact = await provenContact(request, reply, token);
    const body = parseOr400(WalletRemoveBody, request.body);
    const status = await deps.port.RemoveStoredCard(
      { ...byContact(contact), tokenGuid: body.tokenGuid },
      deps.contexts.service(originOf(request)),
    );
    if (!status.Status) throw new PayframeError('not_found', 'No saved card matches.');
    return { removed: true };
  });
}
