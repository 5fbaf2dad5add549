/**
 * The processor port (DESIGN.md §12): card and ACH authorisation behind one interface. The built-in
 * implementation is the deterministic simulator (simulator.ts, docs/test-cards.md); a real acquirer
 * adapter implements the same methods.
 *
 * Every request carries a `reference`, stable per attempt (security-requirements.md IDEM-9): the
 * processor answers a repeated reference with its first answer and never charges twice, and
 * `lookup` tells a recovery step whether an attempt was charged (REL-3).
 */

/** ISO 8583 response codes Payframe uses (and NACHA return codes for ACH). */
export const RESPONSE_MESSAGES = {
  '00': 'Approved',
  '05': 'Do not honor',
  '10': 'Partial approval',
  '12': 'Invalid transaction',
  '13': 'Invalid amount',
  '14': 'Invalid card number',
  '25': 'Original transaction not found',
  '51': 'Insufficient funds',
  '54': 'Expired card',
  '65': 'Additional authentication required',
  N7: 'CVV2 mismatch',
  R01: 'Insufficient funds (ACH return R01)',
  R04: 'Invalid account number (ACH return R04)',
  R28: 'Invalid routing number (ACH return R28)',
} as const;

export type ResponseCode = keyof typeof RESPONSE_MESSAGES;

/** Address verification (AVS) result letters, Visa's meanings. */
export const AVS_MESSAGES = {
  Y: 'Street address and ZIP code match',
  Z: 'ZIP code matches, street address does not',
  A: 'Street address matches, ZIP code does not',
  N: 'Neither street address nor ZIP code match',
  U: 'Address information unavailable',
  R: 'Retry: the issuer was unavailable',
  S: 'AVS not supported by the issuer',
} as const;

export type AvsCode = keyof typeof AVS_MESSAGES;

/** Card security code result: Match, No match, not Processed (none was sent). */
export type CvvResult = 'M' | 'N' | 'P';

export interface ProcessorResult {
  approved: boolean;
  /** '00' approved, '10' partial approval; anything else declined (RESPONSE_MESSAGES; a real acquirer may send others). */
  responseCode: ResponseCode | (string & {});
  responseMessage: string;
  /** Six characters, on approvals only. */
  approvalCode?: string;
  /** What was approved: less than the amount asked on a partial approval, 0 when declined. */
  approvedAmountCents: bigint;
  avsCode?: AvsCode;
  avsMessage?: string;
  cvvResult?: CvvResult;
  /** 3-D Secure is required: authenticate the shopper, then authorise again with `threeDS`. */
  challengeRequired?: boolean;
}

export interface CardAuthorization {
  /** Stable per attempt: a repeat of the same reference is answered the same, and charged once. */
  reference: string;
  pan: string;
  /** Sent to the processor, then forgotten (PCI-331-1): never recorded. */
  cvv?: string;
  expMonth: number;
  /** Four digits. */
  expYear: number;
  amountCents: bigint;
  zip?: string;
  /** Result of the shopper's 3-D Secure challenge, when there was one. */
  threeDS?: { authenticated: boolean };
  /** A zero-amount account verification (amountCents must be 0). */
  verifyOnly?: boolean;
}

export interface AchDebit {
  reference: string;
  routingNumber: string;
  accountNumber: string;
  /** 'checking', 'savings' or 'businesschecking' (lower case). */
  accountType: string;
  amountCents: bigint;
}

/** A follow-up on an earlier approved attempt: capture an authorisation, refund, or void/reverse. */
export interface FollowUp {
  reference: string;
  /** The reference of the authorisation (or debit) this acts on. */
  originalReference: string;
  /** Capture or refund this much; for a void, the amount reversed (the whole approval if omitted). */
  amountCents: bigint;
}

export interface Processor {
  authorizeCard(req: CardAuthorization): Promise<ProcessorResult>;
  debitAch(req: AchDebit): Promise<ProcessorResult>;
  capture(req: FollowUp): Promise<ProcessorResult>;
  refund(req: FollowUp): Promise<ProcessorResult>;
  voidAuthorization(req: Omit<FollowUp, 'amountCents'> & { amountCents?: bigint }): Promise<ProcessorResult>;
  /**
   * What the processor answered to `reference`, or null if it never recorded it (nothing charged).
   * A start settles the claims its own predecessor left with it at once (PGlite: every claim;
   * PostgreSQL: server/instance.ts), so null must mean that no request of that reference sent
   * before the caller died can still be charged: true of the simulator, whose charge is a write the
   * dead process never committed. An adapter whose requests can outlive the caller must answer for
   * them (the acquirer's idempotent lookup) or not answer null until its call limit has passed.
   */
  lookup(reference: string): Promise<ProcessorResult | null>;
  /**
   * The charges it approved (card authorisations and ACH debits, partial approvals included)
   * recorded in [after, before), oldest first, at most `limit`: the processor's side of the
   * reconciliation (payments/reconciliation.ts). A real acquirer answers it from its settlement or
   * transaction report.
   */
  approvedCharges(window: ChargeWindow): Promise<RecordedCharge[]>;
}

export interface ChargeWindow {
  after: Date;
  before: Date;
  limit: number;
}

export interface RecordedCharge {
  reference: string;
  approvedAmountCents: bigint;
  recordedAt: Date;
}

/** A reference was sent again with a different request: a bug in the caller, never a retry. */
export class ProcessorReferenceError extends Error {
  constructor(reference: string) {
    super(`Processor reference ${reference} was already used for a different request.`);
    this.name = 'ProcessorReferenceError';
  }
}
