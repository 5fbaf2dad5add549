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

// (What postMessage delivers is built in this window's realm, so instanceof holds for its objects.)
const isObject = (v: unknown): v is Data => v instanceof Object && !Array.isArray(v);
const isText = (v: unknown, max: number) => typeof v === 'string' && v.length <= max;
const isTextOrNull = (v: unknown) => v === null || typeof v === 'string';

const has = (o: object, key: unknown) => ({}).hasOwnProperty.call(o, key as string);

/** Exactly these keys (zod's strictObject): an extra key makes the message invalid. */
function hasKeys(o: Data, keys: string): boolean {
  const own = Object.keys(o);
  const want = keys.split(' ');
  return own.length === want.length && want.every((k) => has(o, k));
}

const ENVELOPE = 'source v instance type';

const validSuccess = (d: Data) =>
  hasKeys(d, 'transactionId orderNumber amount currency status') &&
  isTextOrNull(d.transactionId) &&
  isTextOrNull(d.orderNumber) &&
  typeof d.amount === 'string' &&
  isTextOrNull(d.currency) &&
  (d.status === 'succeeded' || d.status === 'already_paid');

const validCancel = (d: Data) =>
  hasKeys(d, 'reason sessionOpen') &&
  (d.reason === 'closed' || d.reason === 'canceled') &&
  typeof d.sessionOpen === 'boolean';

/**
 * The loader's own words (the frame's name, the modal's title and its close button) until the form
 * says its own in its language (a `words` message): every page language's words live in the form,
 * none here but these.
 */
export const WORDS = { frame: 'Secure payment form', title: 'Secure checkout', close: 'Close' };
export type Words = typeof WORDS;

/** A `words` message's words: three short texts. */
const validWords = (w: unknown) =>
  isObject(w) &&
  hasKeys(w, 'frame title close') &&
  isText(w.frame, 100) &&
  isText(w.title, 100) &&
  isText(w.close, 100);

const validError = (d: Data) =>
  hasKeys(d, 'code message currency declineCode') &&
  isText(d.code, 64) &&
  isText(d.message, 500) &&
  isTextOrNull(d.currency) &&
  // A family's name (the list is the form's to keep; copying it here would cost the budget).
  (d.declineCode === null || isText(d.declineCode, 32));

/** What the hosted page could not do (shared/checkout/embed-messages.ts EmbedLoadError). */
const validLoadError = (d: Data) =>
  hasKeys(d, 'reason') && (d.reason === 'expired' || d.reason === 'canceled' || d.reason === 'invalid_theme');

const WITH_DATA: Record<string, (d: Data) => boolean> = {
  success: validSuccess,
  error: validError,
  cancel: validCancel,
  loaderror: validLoadError,
};

/**
 * The message when `data` is a valid Payframe embed message for `instance`, else null. Origin and
 * source window are the caller's to check (they are properties of the event, not of the data).
 */
export function parseEmbedMessage(data: unknown, instance: string): EmbedMessage | null {
  if (!isObject(data) || data.source !== 'payframe' || data.v !== 2 || data.instance !== instance)
    return null;
  const { type, data: d, height: h } = data;
  const ok =
    type === 'ready'
      ? hasKeys(data, ENVELOPE + ' lang') && isText(data.lang, 5) // 'zh-CN', 'pt-BR' at most
      : type === 'resize'
        ? hasKeys(data, ENVELOPE + ' height') &&
          // An integer 0…20000: a number whose low 15 bits are all of it (not -1, 1.5 or '10').
          h === ((h as number) & 32767) &&
          (h as number) <= 20000
        : type === 'expired' || type === 'escape'
          ? hasKeys(data, ENVELOPE)
          : type === 'words'
            ? hasKeys(data, ENVELOPE + ' words') && validWords(data.words)
            : has(WITH_DATA, type) &&
              hasKeys(data, ENVELOPE + ' data') &&
              isObject(d) &&
              WITH_DATA[type as string]!(d);
  return ok ? (data as EmbedMessage) : null;
}
