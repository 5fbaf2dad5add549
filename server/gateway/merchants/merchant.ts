/** A merchant as the gateway reads it (merchant-store.ts writes it; merchant-cache.ts keeps it). */
export type PaymentMethod = 'card' | 'ach';

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
  createdAt: Date;
}
