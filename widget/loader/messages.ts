/**
 * Checks what a checkout iframe posts against the shapes of shared/checkout/embed-messages.ts by
 * hand: zod would be ten times the loader's whole budget (DESIGN.md §11). messages.test.ts holds
 * this check to the zod schemas, so the two cannot drift apart.
 */
import type { EmbedMessage } from '../../shared/checkout/embed-messages.ts';

/**
 * shared/checkout/fields.ts SESSION_TOKEN_PATTERN, copied: importing fields.ts brings zod along
 * (its schemas are built at module load, which no bundler can drop). The test compares the two.
 */
export const SESSION_TOKEN = /^cs_[A-Za-z0-9_-]{43}$/;

type Data = Record<string, unknown>;

const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, max: number) => typeof v === 'string' && v.length <= max;
const isTextOrNull = (v: unknown) => v === null || typeof v === 'string';

const has = (o: object, key: unknown) => Object.prototype.hasOwnProperty.call(o, key as string);

/** Exactly these keys (zod's strictObject): an extra key makes the message invalid. */
function hasKeys(o: Data, keys: string): boolean {
  const own = Object.keys(o);
  const want = keys.split(' ');
  return own.length === want.length && want.every((k) => has(o, k));
}

const ENVELOPE = 'source v instance type';

function validSuccess(d: unknown): boolean {
  return (
    isObject(d) &&
    hasKeys(d, 'transactionId orderNumber amount currency status') &&
    isTextOrNull(d.transactionId) &&
    isTextOrNull(d.orderNumber) &&
    typeof d.amount === 'string' &&
    isTextOrNull(d.currency) &&
    (d.status === 'succeeded' || d.status === 'already_paid')
  );
}

function validCancel(d: unknown): boolean {
  return (
    isObject(d) &&
    hasKeys(d, 'reason sessionOpen') &&
    (d.reason === 'closed' || d.reason === 'canceled') &&
    typeof d.sessionOpen === 'boolean'
  );
}

/**
 * The loader's own words in each language the form speaks: the keys are shared/checkout/
 * page-state.ts PAGE_LANGS, copied (messages.test.ts compares the two).
 */
export const WORDS: Record<string, { frame: string; title: string; close: string }> = {
  en: { frame: 'Secure payment form', title: 'Secure checkout', close: 'Close' },
  es: { frame: 'Formulario de pago seguro', title: 'Pago seguro', close: 'Cerrar' },
};

function validError(d: unknown): boolean {
  return (
    isObject(d) &&
    hasKeys(d, 'code message currency declineCode') &&
    isText(d.code, 64) &&
    isText(d.message, 500) &&
    isTextOrNull(d.currency) &&
    // A family's name (the list is the form's to keep; copying it here would cost the budget).
    (d.declineCode === null || isText(d.declineCode, 32))
  );
}

/**
 * The message when `data` is a valid Payframe embed message for `instance`, else null. Origin and
 * source window are the caller's to check (they are properties of the event, not of the data).
 */
export function parseEmbedMessage(data: unknown, instance: string): EmbedMessage | null {
  if (!isObject(data) || data.source !== 'payframe' || data.v !== 2 || data.instance !== instance)
    return null;
  if (!isText(data.instance, 64)) return null;
  switch (data.type) {
    case 'ready':
      return hasKeys(data, ENVELOPE + ' lang') && has(WORDS, data.lang) ? (data as EmbedMessage) : null;
    case 'cancel':
      return hasKeys(data, ENVELOPE + ' data') && validCancel(data.data) ? (data as EmbedMessage) : null;
    case 'expired':
    case 'escape':
      return hasKeys(data, ENVELOPE) ? (data as EmbedMessage) : null;
    case 'success':
      return hasKeys(data, ENVELOPE + ' data') && validSuccess(data.data) ? (data as EmbedMessage) : null;
    case 'error':
      return hasKeys(data, ENVELOPE + ' data') && validError(data.data) ? (data as EmbedMessage) : null;
    case 'resize': {
      const h = data.height;
      return hasKeys(data, ENVELOPE + ' height') &&
        typeof h === 'number' &&
        Number.isInteger(h) &&
        h >= 0 &&
        h <= 20000
        ? (data as EmbedMessage)
        : null;
    }
    default:
      return null;
  }
}
