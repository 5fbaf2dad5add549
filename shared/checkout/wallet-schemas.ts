/**
 * The widget's wallet API (`/api/checkout/sessions/:token/wallet/…`; DESIGN.md §9;
 * security-requirements.md OTP-1…15): ask for a one-time code, verify it for a short-lived wallet
 * credential, list and remove the shopper's saved cards. A code never reaches the browser, and the
 * answer to a send is the same whether or not the contact holds a wallet (OTP-7).
 */
import { z } from 'zod';
import { noCardNumber } from './fields.ts';
import { PAGE_LANGS } from './page-lang.ts';

/** The header that carries the wallet credential issued by a successful verify. */
export const WALLET_HEADER = 'x-payframe-wallet';

/** The gateway's normal form of an e-mail (docs/gateway-wallet-codes.md "Contacts"), or null. */
export function normalEmail(value: string): string | null {
  const v = value.trim().toLowerCase();
  return v.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? v : null;
}

/** The gateway's normal form of a phone number (E.164; bare North American numbers get +1), or null. */
export function normalPhone(value: string): string | null {
  let v = value.trim().replace(/[\s./()-]/g, '');
  if (v.startsWith('00')) v = `+${v.slice(2)}`;
  if (!v.startsWith('+')) {
    if (/^\d{10}$/.test(v)) v = `+1${v}`;
    else if (/^1\d{10}$/.test(v)) v = `+${v}`;
    else return null;
  }
  return /^\+\d{7,15}$/.test(v) ? v : null;
}

const WalletEmail = z
  .string({ error: 'email must be text.' })
  .refine((v) => normalEmail(v) !== null, {
    message: 'email must be an e-mail address.',
    params: { code: 'invalid_email' },
  })
  .check(noCardNumber('email'));

const WalletPhone = z
  .string({ error: 'phone must be text.' })
  .refine((v) => normalPhone(v) !== null, {
    message: 'phone must be a phone number; give it in international form, e.g. +44 20 7946 0958.',
    params: { code: 'invalid_phone' },
  })
  .check(noCardNumber('phone'));

/** Where to send codes; with neither, the session's own e-mail and phone are used. */
export const WalletSendCodeBody = z.strictObject({
  email: WalletEmail.optional(),
  phone: WalletPhone.optional(),
  lang: z
    .enum(PAGE_LANGS)
    .optional()
    .meta({ description: "The form's language, for the code's e-mail or SMS (else the session's locale)." }),
});
export type WalletSendCodeBody = z.infer<typeof WalletSendCodeBody>;

export const WalletChannel = z.object({
  channel: z.enum(['email', 'sms']),
  to: z.string().meta({ description: 'The contact, masked (e.g. "a•••@example.com", "•••• 1001").' }),
});

/** 202, identical in status and shape whether or not the contact holds a wallet (OTP-7). */
export const WalletSendCodeResponse = z.object({
  verificationId: z.string(),
  channels: z.array(WalletChannel),
});
export type WalletSendCodeResponse = z.infer<typeof WalletSendCodeResponse>;

export const WalletVerifyBody = z.strictObject({
  verificationId: z
    .string({ error: 'verificationId must be text.' })
    .regex(/^[A-Za-z0-9_-]{16,64}$/, 'verificationId is not valid.'),
  code: z.string({ error: 'code must be text.' }).regex(/^\d{6}$/, 'code must be 6 digits.'),
});
export type WalletVerifyBody = z.infer<typeof WalletVerifyBody>;

export const WalletVerifyResponse = z.object({
  walletToken: z.string().meta({
    description: `Send it as the ${WALLET_HEADER} header; valid 15 minutes, for this session only.`,
  }),
  expiresAt: z.string(),
});
export type WalletVerifyResponse = z.infer<typeof WalletVerifyResponse>;

export const WalletCard = z.object({
  tokenGuid: z.string(),
  maskedCardNumber: z.string().meta({ description: 'Last four digits only, e.g. "•••• 4242".' }),
  cardType: z.string().nullable(),
  nameOnCard: z.string().nullable(),
  displayName: z.string().nullable(),
  expiry: z.object({ month: z.number().int(), year: z.number().int() }).nullable().meta({
    description: "The card's expiry (month 1–12, four-digit year); null when the gateway did not say.",
  }),
});
export type WalletCard = z.infer<typeof WalletCard>;

export const WalletCardsResponse = z.object({ cards: z.array(WalletCard) });
export type WalletCardsResponse = z.infer<typeof WalletCardsResponse>;

export const WalletRemoveBody = z.strictObject({
  tokenGuid: z
    .string({ error: 'tokenGuid must be text.' })
    .regex(/^[0-9a-f-]{36}$/i, 'tokenGuid is not valid.'),
});
export type WalletRemoveBody = z.infer<typeof WalletRemoveBody>;

export const WalletRemoveResponse = z.object({ removed: z.boolean() });
