/**
 * The loader checks embed messages by hand (no zod in a 3 KB script); here every accept or refuse
 * decision is compared with the shared zod schema, over valid messages and broken variants of each.
 */
import { describe, expect, test } from 'vitest';
import { EmbedMessage } from '../../shared/checkout/embed-messages.ts';
import { SESSION_TOKEN_PATTERN } from '../../shared/checkout/fields.ts';
import { PAGE_LANGS } from '../../shared/checkout/page-state.ts';
import { parseEmbedMessage, SESSION_TOKEN, WORDS } from './messages.ts';

const ID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const env = { source: 'payframe', v: 2, instance: ID };
const success = {
  transactionId: '500000001',
  orderNumber: 'A-1001',
  amount: '24.99',
  currency: 'USD',
  status: 'succeeded',
};

const valid: Record<string, unknown>[] = [
  { ...env, type: 'ready', lang: 'en' },
  { ...env, type: 'ready', lang: 'es' },
  { ...env, type: 'cancel', data: { reason: 'canceled', sessionOpen: false } },
  { ...env, type: 'cancel', data: { reason: 'closed', sessionOpen: true } },
  { ...env, type: 'escape' },
  { ...env, type: 'expired' },
  { ...env, type: 'success', data: success },
  {
    ...env,
    type: 'success',
    data: { ...success, transactionId: null, orderNumber: null, currency: null, status: 'already_paid' },
  },
  {
    ...env,
    type: 'error',
    data: {
      code: 'declined',
      message: 'The card was declined.',
      currency: 'USD',
      declineCode: 'insufficient_funds',
    },
  },
  {
    ...env,
    type: 'error',
    data: { code: 'payment_failed', message: 'Try again.', currency: null, declineCode: null },
  },
  { ...env, type: 'loaderror', data: { reason: 'expired' } },
  { ...env, type: 'loaderror', data: { reason: 'canceled' } },
  { ...env, type: 'loaderror', data: { reason: 'invalid_theme' } },
  { ...env, type: 'resize', height: 0 },
  { ...env, type: 'resize', height: 1 },
  { ...env, type: 'resize', height: 20000 },
  {
    ...env,
    type: 'words',
    words: { frame: 'Formulario de pago seguro', title: 'Pago seguro', close: 'Cerrar' },
  },
  {
    ...env,
    type: 'words',
    words: { frame: '安全なお支払いフォーム', title: '安全なお支払い', close: '閉じる' },
  },
];

/** Each valid message broken in one way: a wrong tag, a missing or extra key, a wrong type or range. */
function broken(m: Record<string, unknown>): unknown[] {
  const out: unknown[] = [
    { ...m, source: 'other' },
    { ...m, v: 1 },
    { ...m, v: 3 },
    { ...m, v: '1' },
    { ...m, extra: true },
    { ...m, instance: 'x'.repeat(65) },
    { ...m, type: 'submit' },
    Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'type')),
    Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'instance')),
  ];
  if (m.type === 'resize') {
    out.push(
      { ...m, height: -1 },
      { ...m, height: 20001 },
      { ...m, height: 32767 },
      { ...m, height: 32768 },
      { ...m, height: 1.5 },
      { ...m, height: '10' },
      { ...m, height: null },
      { ...m, height: true },
    );
  }
  if (m.type === 'success') {
    const d = m.data as Record<string, unknown>;
    out.push(
      { ...m, data: { ...d, amount: 24.99 } },
      { ...m, data: { ...d, status: 'failed' } },
      { ...m, data: { ...d, currency: 840 } },
      { ...m, data: { ...d, cardNumber: '4242424242424242' } },
      { ...m, data: { amount: d.amount, status: d.status } },
      { ...m, data: null },
      { ...m, data: [d] },
    );
  }
  if (m.type === 'error') {
    out.push(
      { ...m, data: { ...(m.data as object), code: 'x'.repeat(65) } },
      { ...m, data: { ...(m.data as object), message: 'x'.repeat(501) } },
      { ...m, data: { code: 'c', message: 'm' } },
      { ...m, data: { ...(m.data as object), code: 1 } },
      { ...m, data: { ...(m.data as object), currency: 840 } },
      { ...m, data: { ...(m.data as object), declineCode: 5 } },
    );
  }
  if (m.type === 'ready') {
    out.push(
      { ...m, data: {} },
      { ...m, height: 10 },
      { ...m, lang: 'fr-FR-x' },
      { ...m, lang: 1 },
      { ...m, lang: 'toString' },
    );
    out.push(Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'lang')));
  }
  if (m.type === 'loaderror') {
    out.push(
      // no_response is the loader's own reason: the page never sends it.
      { ...m, data: { reason: 'no_response' } },
      { ...m, data: { reason: ['expired'] } },
      { ...m, data: { reason: 'expired', extra: 1 } },
      { ...m, data: {} },
      { ...m, data: 'expired' },
      { ...m, data: null },
      Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'data')),
    );
  }
  if (m.type === 'cancel') {
    const d = m.data as Record<string, unknown>;
    out.push(
      { ...m, data: { ...d, reason: 'left' } },
      { ...m, data: { ...d, sessionOpen: 'true' } },
      { ...m, data: { reason: d.reason } },
      { ...m, data: { ...d, extra: 1 } },
      Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'data')),
    );
  }
  return out;
}

describe('parseEmbedMessage agrees with the shared EmbedMessage schema', () => {
  test.each(valid.map((m) => [m.type, m] as const))('accepts a valid %s message', (_type, m) => {
    expect(EmbedMessage.safeParse(m).success).toBe(true);
    expect(parseEmbedMessage(m, ID)).toEqual(m);
  });

  test.each(valid.map((m) => [m.type, m] as const))('refuses broken %s messages', (_type, m) => {
    for (const b of broken(m)) {
      // Some variants (a 65-character instance) are also another instance's id; both must refuse.
      expect({ message: b, zod: EmbedMessage.safeParse(b).success }).toEqual({ message: b, zod: false });
      expect({ message: b, loader: parseEmbedMessage(b, ID) }).toEqual({ message: b, loader: null });
    }
  });

  test("refuses a valid message addressed to another instance, and values that aren't objects", () => {
    expect(parseEmbedMessage({ ...env, instance: 'other', type: 'ready' }, ID)).toBeNull();
    for (const v of [null, undefined, 'payframe', 1, [], [env]]) expect(parseEmbedMessage(v, ID)).toBeNull();
  });
});

test("the loader takes the form's ready in every page language, and its words from the form", () => {
  for (const lang of PAGE_LANGS) {
    expect(parseEmbedMessage({ ...env, type: 'ready', lang }, ID)).toEqual({ ...env, type: 'ready', lang });
  }
  // Only the zod schema knows the list: a short tag it does not name is still a ready.
  expect(EmbedMessage.safeParse({ ...env, type: 'ready', lang: 'xx' }).success).toBe(false);
  expect(parseEmbedMessage({ ...env, type: 'ready', lang: 'xx' }, ID)?.type).toBe('ready');
  // Until the form says its own: English.
  expect(WORDS).toEqual({ frame: 'Secure payment form', title: 'Secure checkout', close: 'Close' });
  const long = 'x'.repeat(101);
  for (const words of [
    { frame: long, title: 't', close: 'c' },
    { frame: 'f', title: 't' },
    { frame: 'f', title: 't', close: 1 },
  ])
    expect(parseEmbedMessage({ ...env, type: 'words', words }, ID)).toBeNull();
});

test('the loader checks session tokens with the shared pattern', () => {
  expect(SESSION_TOKEN.source).toBe(SESSION_TOKEN_PATTERN.source);
  expect(SESSION_TOKEN.flags).toBe(SESSION_TOKEN_PATTERN.flags);
});
