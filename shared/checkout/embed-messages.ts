/**
 * What the checkout iframe tells the page that embeds it (DESIGN.md §11; EMB-*): `postMessage`
 * with an exact target origin (one of the merchant's registered origins), checked on receipt by
 * origin, source window and instance id, and parsed with these schemas. No message ever carries
 * card or bank data: only what the merchant's own server can confirm anyway.
 */
import { z } from 'zod';
import { DECLINE_FAMILIES } from './decline-messages.ts';
import { PAGE_LANGS } from './page-state.ts';

/** Every message is tagged so a page can ignore other frames' traffic. */
export const EMBED_SOURCE = 'payframe';
/**
 * The message version. The frame speaks version 2 when its address asks for it (`&v=2`: the loader
 * always does, and so does the guide's plain iframe); without it, version 1, the shapes loaders
 * and pages written before version 2 check key for key (EmbedMessageV1), so a page pinned to an
 * older loader build (/checkout.<version>.js) keeps hearing the frame after an upgrade.
 */
export const EMBED_VERSION = 2;

const envelope = {
  source: z.literal(EMBED_SOURCE),
  v: z.literal(EMBED_VERSION),
  /** The id the loader gave this widget (the iframe's `instance` query parameter); '' for a plain iframe. */
  instance: z.string().max(64),
};

export const EmbedSuccess = z.strictObject({
  transactionId: z.string().nullable(),
  orderNumber: z.string().nullable(),
  amount: z.string(),
  /** ISO 4217 (issue 14 §11); null for a session whose currency the gateway does not report. */
  currency: z.string().nullable(),
  status: z.enum(['succeeded', 'already_paid']),
});
export type EmbedSuccess = z.infer<typeof EmbedSuccess>;

/**
 * A payment attempt that failed: `code` `declined` (the bank said no; `declineCode` its family,
 * shared/checkout/decline-messages.ts) or `payment_failed` (network, server, a failed bank check;
 * `declineCode` null); `currency` the session's (issue 14 §11).
 */
export const EmbedError = z.strictObject({
  code: z.string().max(64),
  message: z.string().max(500),
  currency: z.string().nullable(),
  declineCode: z.enum(DECLINE_FAMILIES).nullable(),
});
export type EmbedError = z.infer<typeof EmbedError>;

/**
 * `payframe:cancel` (issue 14 §1): `closed` — the shopper closed the modal, and the session stays
 * open unless it had already ended (`sessionOpen`); `canceled` — the shopper confirmed "Cancel
 * payment" in the form, and the session is over. Only the form sends `canceled`; the loader itself
 * fires `closed`.
 */
export const EmbedCancel = z.strictObject({
  reason: z.enum(['closed', 'canceled']),
  sessionOpen: z.boolean(),
});
export type EmbedCancel = z.infer<typeof EmbedCancel>;

/**
 * `loaderror` (version 2 only; issue 14 §12): the hosted page loaded but cannot show the session as
 * asked, sent once when it loads: `expired` or `canceled` (no payment can be taken; the page says
 * so), `unavailable` (no payment can be taken, and the Transaction Service said why: the page shows
 * its words, WidgetSession.unavailableMessage), or `invalid_theme` (the `theme` the Theme schema
 * refuses; the form shows in its default look). The loader passes it on as `payframe:loaderror`
 * (not `unavailable` yet: widget/loader/messages.ts does not know it, its 3 KB budget had no room;
 * the page sends `expired` too), and adds its own reason `no_response`: no `ready` from the frame
 * within 15 s (widget/loader/widget.ts) — the frame was refused by frame-ancestors (this page's
 * origin is not registered, or the token is unknown: the page can tell no one) or the network failed.
 */
export const EmbedLoadError = z.strictObject({
  reason: z.enum(['expired', 'canceled', 'unavailable', 'invalid_theme']),
});
export type EmbedLoadError = z.infer<typeof EmbedLoadError>;
export type LoadErrorReason = EmbedLoadError['reason'] | 'no_response';

export const EmbedWords = z.strictObject({
  frame: z.string().max(100),
  title: z.string().max(100),
  close: z.string().max(100),
});
export type EmbedWords = z.infer<typeof EmbedWords>;

export const EmbedMessage = z.discriminatedUnion('type', [
  /** `lang`: the form's language. */
  z.strictObject({ ...envelope, type: z.literal('ready'), lang: z.enum(PAGE_LANGS) }),
  /**
   * The loader's own words in the form's language (the frame's name, the modal's title and its close
   * button), after `ready` and whenever the shopper picks another language: every page language's
   * words live in the form, none in the loader. A message of its own: a loader of an older build
   * ignores a type it does not know, where an extra key in `ready` would make it invalid.
   */
  z.strictObject({ ...envelope, type: z.literal('words'), words: EmbedWords }),
  z.strictObject({ ...envelope, type: z.literal('success'), data: EmbedSuccess }),
  z.strictObject({ ...envelope, type: z.literal('error'), data: EmbedError }),
  z.strictObject({ ...envelope, type: z.literal('cancel'), data: EmbedCancel }),
  z.strictObject({ ...envelope, type: z.literal('expired') }),
  z.strictObject({ ...envelope, type: z.literal('loaderror'), data: EmbedLoadError }),
  /** Esc pressed inside the form: a modal closes (as its own Esc would); an inline widget ignores it. */
  z.strictObject({ ...envelope, type: z.literal('escape') }),
  /** The content's height in CSS pixels, so the frame fits it without an inner scroll bar. */
  z.strictObject({ ...envelope, type: z.literal('resize'), height: z.number().int().min(0).max(20000) }),
]);
export type EmbedMessage = z.infer<typeof EmbedMessage>;

const envelopeV1 = { ...envelope, v: z.literal(1) };
/** Version 1: `ready` and `cancel` without fields, `success` without currency, `error` code and message. */
export const EmbedMessageV1 = z.discriminatedUnion('type', [
  z.strictObject({ ...envelopeV1, type: z.literal('ready') }),
  z.strictObject({ ...envelopeV1, type: z.literal('success'), data: EmbedSuccess.omit({ currency: true }) }),
  z.strictObject({
    ...envelopeV1,
    type: z.literal('error'),
    data: EmbedError.pick({ code: true, message: true }),
  }),
  z.strictObject({ ...envelopeV1, type: z.literal('cancel') }),
  z.strictObject({ ...envelopeV1, type: z.literal('expired') }),
  z.strictObject({ ...envelopeV1, type: z.literal('escape') }),
  z.strictObject({ ...envelopeV1, type: z.literal('resize'), height: z.number().int().min(0).max(20000) }),
]);
export type EmbedMessageV1 = z.infer<typeof EmbedMessageV1>;
export type EmbedEventName = 'ready' | 'success' | 'error' | 'cancel' | 'expired' | 'loaderror';

/** A merchant theme (mount option `theme`, iframe query `theme`): hex colours only, bounded sizes. */
export const Theme = z.strictObject({
  primaryColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'theme.primaryColor must be a hex colour such as #3355ff.')
    .optional(),
  radius: z.number().int().min(0).max(24).optional(),
  font: z
    .string()
    .regex(/^[A-Za-z0-9 ,'-]{1,100}$/, 'theme.font must be a font-family list.')
    .optional(),
  mode: z.enum(['light', 'dark', 'auto']).optional(),
});
export type Theme = z.infer<typeof Theme>;
