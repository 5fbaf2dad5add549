/** The words for the API's enumerations: each value has its own message key (a typo does not compile). */
import type { EventKind, LinkStatus, Method, Payment, PaymentState, WebhookDelivery } from './api-types.ts';
import type { I18n, MessageKey } from './i18n/index.ts';

type T = I18n['t'];

export const stateLabel = (t: T, state: PaymentState) => t(`state${state}` satisfies MessageKey);
export const methodName = (t: T, method: Method) => t(`method${method}` satisfies MessageKey);
export const eventLabel = (t: T, kind: EventKind) => t(`event${kind}` satisfies MessageKey);
const WEBHOOK_KEYS = {
  pending: 'webhookPending',
  delivered: 'webhookDelivered',
  abandoned: 'webhookAbandoned',
} as const;
export const webhookStatusLabel = (t: T, status: WebhookDelivery['status']) => t(WEBHOOK_KEYS[status]);
export const linkStatusLabel = (t: T, status: LinkStatus) => t(`link${status}` satisfies MessageKey);

/** "Visa ending 4242", "Bank account ending 6789", or the method's name when the digits are not known. */
export function methodLabel(t: T, p: Pick<Payment, 'method' | 'brand' | 'last4'>): string {
  if (!p.last4) return p.brand ?? methodName(t, p.method);
  if (p.method === 'Ach') return t('bankEnding', { last4: p.last4 });
  return t('cardEnding', { brand: p.brand ?? methodName(t, 'Card'), last4: p.last4 });
}

const AVS_KEYS = {
  Y: 'avsY',
  Z: 'avsZ',
  A: 'avsA',
  N: 'avsN',
  U: 'avsU',
  R: 'avsR',
  S: 'avsS',
} as const;

/** A card payment's address check: the processor's AVS letter in words; none: not checked. */
export function avsLabel(t: T, avs: string | undefined): string {
  if (!avs) return t('avsNotChecked');
  const key = AVS_KEYS[avs as keyof typeof AVS_KEYS];
  return key ? t(key) : t('avsOther', { code: avs });
}
