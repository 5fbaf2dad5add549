/** A merchant as the gateway reads it (merchant-store.ts writes it; merchant-cache.ts keeps it). */
export type PaymentMethod = 'card' | 'ach';

/**
 * After a successful payment on the hosted page (issue 14 §9): straight back to the ReturnUrl, or
 * the receipt until the shopper chooses "Return to …" (docs/merchant-guide.md, "Checkout settings").
 */
export type ReturnMode = 'immediate' | 'confirmation';
export const RETURN_MODES: readonly ReturnMode[] = ['immediate', 'confirmation'];

export interface Merchant {
  id: string;
  publicCode: string;
  name: string;
  logoUrl: string | null;
  businessName: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  zip: string | null;
  phone: string | null;
  email: string | null;
  website: string | null;
  paymentMethods: PaymentMethod[];
  threeDsEnrolled: boolean;
  origins: string[];
  returnMode: ReturnMode;
  /** The card form asks for the name on the card (issue 14 §3); off by default. */
  nameOnCardRequired: boolean;
  /** The hosted page's brand colour, `#rrggbb` in lower case (null: Payframe's default). */
  brandColor: string | null;
  /** The hosted page's corner radius in pixels, 0 to 24 (null: Payframe's default). */
  cornerRadius: number | null;
  /** The merchant's terms of sale and privacy policy (https), linked in the payment page's footer. */
  termsUrl: string | null;
  privacyUrl: string | null;
  /** The card form asks for the billing postal code, and the processor checks it (AVS); off by default. */
  postalCodeRequired: boolean;
  /** A receipt e-mail goes to the shopper after an approved payment; on by default. */
  receiptEmail: boolean;
  createdAt: Date;
}
