/**
 * The dashboard's live preview of the hosted page (`/pay/preview`, issue 16 "Settings"): the
 * dashboard's Settings page frames it (same origin; the page's frame-ancestors is 'self') and posts
 * the merchant's draft as it is typed. Only a message from the parent window of this origin is
 * read, and each value is checked as the gateway checks it before it reaches the page (colours and
 * radii only ever become CSS custom properties, theme.ts); anything else is ignored as a whole.
 */
import type { WidgetSession } from '../../../shared/checkout/index.ts';

/** The token of the preview's sample session: never a real one (cs_…), so the API refuses it. */
export const PREVIEW_TOKEN = 'preview';

/** What the dashboard sends (`type: 'payframe:preview'`) and the frame answers when it is ready. */
export const PREVIEW_MESSAGE = 'payframe:preview';
export const PREVIEW_READY = 'payframe:preview-ready';

export interface PreviewDraft {
  name: string;
  logoUrl: string | null;
  website: string | null;
  brandColor: string | null;
  cornerRadius: number | null;
  methods: ('card' | 'ach')[];
  nameOnCardRequired: boolean;
  /** The footer's links (https); absent or null: none. */
  termsUrl?: string | null;
  privacyUrl?: string | null;
  /** The card form asks for the postal code; absent: not asked. */
  postalCodeRequired?: boolean;
}

const urlOr = (v: unknown, protocols: string[]): string | null | undefined => {
  if (v === null || v === '') return null;
  if (typeof v !== 'string' || v.length > 2048) return undefined;
  try {
    return protocols.includes(new URL(v).protocol) ? v : null;
  } catch {
    return null; // a half-typed address: previewed without it
  }
};

/** The draft a message carries, checked; null when it is not a preview message or a value is wrong. */
export function previewDraft(data: unknown): PreviewDraft | null {
  if (typeof data !== 'object' || data === null) return null;
  const m = data as Record<string, unknown>;
  if (m['type'] !== PREVIEW_MESSAGE) return null;
  const d = m['draft'];
  if (typeof d !== 'object' || d === null) return null;
  const o = d as Record<string, unknown>;
  const name = o['name'];
  if (typeof name !== 'string' || name.length > 200) return null;
  const logoUrl = urlOr(o['logoUrl'], ['https:']);
  const website = urlOr(o['website'], ['https:', 'http:']);
  if (logoUrl === undefined || website === undefined) return null;
  const color = o['brandColor'];
  const brandColor = typeof color === 'string' && /^#[0-9a-fA-F]{6}$/.test(color) ? color : null;
  const r = o['cornerRadius'];
  const cornerRadius =
    Number.isInteger(r) && (r as number) >= 0 && (r as number) <= 24 ? (r as number) : null;
  const methods = o['methods'];
  if (!Array.isArray(methods) || !methods.every((x) => x === 'card' || x === 'ach')) return null;
  const nameOnCard = o['nameOnCardRequired'];
  if (typeof nameOnCard !== 'boolean') return null;
  const termsUrl = urlOr(o['termsUrl'] ?? null, ['https:']);
  const privacyUrl = urlOr(o['privacyUrl'] ?? null, ['https:']);
  if (termsUrl === undefined || privacyUrl === undefined) return null;
  const postal = o['postalCodeRequired'];
  if (postal !== undefined && typeof postal !== 'boolean') return null;
  return {
    name,
    logoUrl,
    website,
    brandColor,
    cornerRadius,
    methods: methods.length > 0 ? (methods as ('card' | 'ach')[]) : ['card'],
    nameOnCardRequired: nameOnCard,
    ...(termsUrl ? { termsUrl } : {}),
    ...(privacyUrl ? { privacyUrl } : {}),
    ...(postal === true ? { postalCodeRequired: true } : {}),
  };
}

/** The sample session with the draft in it. */
export function withDraft(sample: WidgetSession, d: PreviewDraft): WidgetSession {
  return {
    ...sample,
    merchant: {
      name: d.name.trim() || sample.merchant.name,
      logoUrl: d.logoUrl,
      website: d.website,
      brandColor: d.brandColor,
      cornerRadius: d.cornerRadius,
      termsUrl: d.termsUrl ?? null,
      privacyUrl: d.privacyUrl ?? null,
    },
    methods: d.methods,
    nameOnCardRequired: d.nameOnCardRequired,
    postalCode: d.postalCodeRequired ? 'required' : 'hidden',
  };
}
