/**
 * The session the page's HTML carries (shared/checkout/page-state.ts; server/checkout/page-html.ts
 * writes it), read once on start so the first render is the form, not a spinner waiting for the API.
 *
 * The widget has no zod (its bundle stays small, STYLE.md §12), and the API's answer is taken as it
 * comes (api.ts); this block gets a light check of its shape on top, one entry per field of
 * WidgetSession so the compiler asks for a check when the schema grows a field. Anything that does
 * not pass is ignored, and the app asks the API as it would without the block.
 */
import { SESSION_STATE_ID } from '../../../shared/checkout/page-state.ts';
import type { Receipt, WidgetSession } from '../../../shared/checkout/index.ts';

type Check = (value: unknown) => boolean;
const str: Check = (v) => typeof v === 'string';
const strOrNull: Check = (v) => v === null || typeof v === 'string';
const bool: Check = (v) => typeof v === 'boolean';
const obj = (fields: Record<string, Check>): Check => {
  return (v) =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.entries(fields).every(([k, check]) => check((v as Record<string, unknown>)[k]));
};
const list =
  (item: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(item);
const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined || check(v);

const RECEIPT_FIELDS: Record<keyof Receipt, Check> = {
  status: (v) => v === 'succeeded',
  transactionId: strOrNull,
  approvalCode: strOrNull,
  maskedCard: strOrNull,
  cardBrand: strOrNull,
  method: (v) => v === null || v === 'card' || v === 'ach',
  amount: str,
  currency: strOrNull,
  orderNumber: strOrNull,
  merchantName: strOrNull,
  paidAt: str,
  cardSaved: optional(bool),
};

const SESSION_FIELDS: Record<keyof WidgetSession, Check> = {
  token: str,
  status: (v) => v === 'open' || v === 'paid' || v === 'expired' || v === 'canceled',
  amount: str,
  currency: strOrNull,
  orderNumber: strOrNull,
  expiresAt: strOrNull,
  merchant: obj({
    name: strOrNull,
    logoUrl: strOrNull,
    website: strOrNull,
    brandColor: strOrNull,
    cornerRadius: (v) => v === null || Number.isInteger(v),
    termsUrl: optional(strOrNull),
    privacyUrl: optional(strOrNull),
  }),
  methods: list((v) => v === 'card' || v === 'ach'),
  locale: strOrNull,
  embedOrigins: list(str),
  threeDSecure: bool,
  returnMode: (v) => v === 'immediate' || v === 'confirmation',
  postalCode: optional((v) => v === 'required' || v === 'hidden'),
  nameOnCardRequired: bool,
  shopper: obj({ email: strOrNull, firstName: strOrNull, lastName: strOrNull, zipCode: strOrNull }),
  backUrl: strOrNull,
  description: strOrNull,
  lineItems: (v) =>
    v === null || list(obj({ name: str, quantity: (q) => Number.isInteger(q), unitAmount: str }))(v),
  receipt: optional(obj(RECEIPT_FIELDS)),
  redirectUrl: optional(strOrNull),
  unavailableMessage: optional(strOrNull),
  capabilities: optional(obj({ cancel: bool, removeSavedCard: bool })),
};
/** The check the page's block must pass (exported for its test, which holds it to the zod schema). */
export const isSession = obj(SESSION_FIELDS);

/**
 * The session in the page for `token`; null when the page says there is no such session; undefined
 * when the page carries no usable state (the app then loads the session from the API).
 */
export function pageSession(token: string): WidgetSession | null | undefined {
  const text = document.getElementById(SESSION_STATE_ID)?.textContent;
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null) return null;
  return isSession(value) && (value as WidgetSession).token === token ? (value as WidgetSession) : undefined;
}
