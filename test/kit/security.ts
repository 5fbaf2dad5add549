/** Helpers of the security tests: saved cards for a contact, the widget's wallet calls, addresses. */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type CheckoutWorld, createSession, SERVICE_KEY, WIDGET_HEADERS } from './checkout/checkout-world.ts';
import { call, futureExpiry } from './gateway/gateway-kit.ts';
import { listOutbox } from '../../server/notify/outbox.ts';

/** A source of distinct client addresses (the per-address limits never mix tests up). */
export function addresses(prefix: string) {
  let n = 0;
  return () => {
    n += 1;
    return `${prefix}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
  };
}

/** Saves a card for the contact, as the checkout server does after a paid "save this card". */
export async function saveCard(w: CheckoutWorld, contact: { email?: string; phone?: string }) {
  const status = await call(
    w.app,
    'UpdateToken',
    {
      token: {
        MerchantID: w.merchant.id,
        IsValidateCard: false,
        CardEmail: contact.email,
        PhoneNumber: contact.phone,
        CardNumber: '4242424242424242',
        ExpirationDate: futureExpiry(),
        NameOnCard: 'Ada Lovelace',
      },
    },
    { service: SERVICE_KEY },
  );
  expect(status.Status).toBe(true);
}

export function walletSession(w: CheckoutWorld, email: string): Promise<string> {
  return createSession(w, { shopper: { email, firstName: 'Ada', lastName: 'Lovelace' } });
}

export function walletPost(
  w: CheckoutWorld,
  token: string,
  path: 'send-code' | 'verify',
  body: unknown,
  ip: string,
): Promise<LightMyRequestResponse> {
  return w.app.inject({
    method: 'POST',
    url: `/api/checkout/sessions/${token}/wallet/${path}`,
    remoteAddress: ip,
    headers: WIDGET_HEADERS,
    payload: JSON.stringify(body),
  });
}

/** The code the last message to `to` carried, once the notifier has sent what it queued. */
export async function deliveredCode(w: CheckoutWorld, to: string): Promise<string | null> {
  await w.t.gateway.deps.notifier.flush();
  const [message] = await listOutbox(w.db, { to });
  return message ? (/\b(\d{6})\b/.exec(message.text)?.[1] ?? null) : null;
}
