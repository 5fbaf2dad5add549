/**
 * The checkout's own records of a session's payment (DESIGN.md §8): attempts, the one payment, and
 * what an attempt ended with. Types only, shared by attempts.ts, webhooks.ts and the pay flow.
 */

/** What the gateway said of the session, kept with the checkout's records. */
export interface SessionSnapshot {
  merchantId: string;
  merchantName: string | null;
  amount: string;
  currency: string | null;
  orderNumber: string | null;
  returnUrl: string | null;
}

/**
 * Where the receipt e-mail of a session's payment goes (docs/merchant-guide.md "Receipt e-mails"):
 * the session's shopper e-mail, in its locale, when its merchant sends receipts; null otherwise.
 * `accountType`: a bank account's type, when the checkout took the account itself.
 */
export interface ReceiptTo {
  email: string;
  locale: string | null;
  accountType?: 'checking' | 'savings' | 'businessChecking';
}

/** An attempt is committed before the gateway is asked anything, so it knows only its key and method. */
export interface Attempt {
  id: string;
  sessionToken: string;
  idempotencyKey: string;
  method: 'card' | 'ach';
  state: 'started' | 'succeeded' | 'declined' | 'failed';
  startedAt: Date;
}

export interface Payment extends SessionSnapshot {
  sessionToken: string;
  transactionId: string | null;
  approvalCode: string | null;
  maskedCard: string | null;
  /** The gateway's CardBrand ('Visa'…); null for a bank account or when the gateway did not say. */
  cardBrand: string | null;
  method: string | null;
  paidAt: Date;
  /** The Idempotency-Key of the attempt that paid, when the checkout made it. */
  attemptKey: string | null;
  /** The redirect's signature, made by the gateway under the merchant's key (null for older records). */
  redirectSignature: string | null;
  /**
   * The same under the previous TransactionKey, when the gateway signed during a roll's overlap
   * (not kept in the checkout's database: a payment read back from it carries the new key's only).
   */
  redirectSignaturePrevious?: string | null;
}

export type Outcome =
  | {
      kind: 'succeeded';
      transactionId: string | null;
      approvalCode: string | null;
      maskedCard: string | null;
    }
  /** The gateway or processor said no; recorded, and replayed for the same key. */
  | { kind: 'declined'; code: string; message: string; transactionId: string | null }
  /** Nothing was charged and nothing is worth replaying (in progress elsewhere, not completed). */
  | { kind: 'failed'; code: string; message: string };

/** A declined attempt as the `payment.failed` webhook tells it. */
export interface Decline {
  attempt: Attempt;
  snapshot: SessionSnapshot;
  decline: Extract<Outcome, { kind: 'declined' }>;
}
