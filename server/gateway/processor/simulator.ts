/**
 * The deterministic processor simulator (DESIGN.md §12), the sandbox's acquirer. Its test cards and
 * ACH accounts, response codes, AVS and CVV results are documented for merchants in
 * docs/test-cards.md; keep the two in step.
 *
 * Deterministic: the same request gives the same answer, and approval codes derive from the
 * reference. Each answer is recorded in a ledger by reference (IDEM-9), so a repeat is answered from
 * it and charged once, and `lookup` serves recovery (REL-3). 3-D Secure challenges and "original
 * not found" answers are not recorded: nothing was charged, and a later call may succeed.
 */
import crypto from 'node:crypto';
import { abaRoutingValid, bankAccountNumberValid } from '../../../shared/card/bank-account.ts';
import { normalizeCardNumber } from '../../../shared/card/card-number.ts';
import { expiryInPast, expiryInRange } from '../../../shared/card/expiry.ts';
import { luhnValid } from '../../../shared/card/luhn.ts';
import { MAX_CENTS } from '../../../shared/money.ts';
import { cardBrand, cvvLength } from '../vault/card-checks.ts';
import { type LedgerKind, MemoryLedger, type ProcessorLedger } from './ledger.ts';
import {
  type AchDebit,
  AVS_MESSAGES,
  type AvsCode,
  type CardAuthorization,
  type CvvResult,
  type FollowUp,
  type ChargeWindow,
  type Processor,
  ProcessorReferenceError,
  type ProcessorResult,
  type RecordedCharge,
  RESPONSE_MESSAGES,
  type ResponseCode,
} from './processor.ts';

/** The magic numbers; any other Luhn-valid card is approved. */
export const TEST_CARDS = {
  visa: '4242424242424242',
  mastercard: '5555555555554444',
  amex: '378282246310005',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expiredCard: '4000000000000069',
  cvvMismatch: '4000000000000127',
  threeDSecure: '4000000000003220',
  partialApproval: '4000000000000036',
} as const;

export const ACH_TEST_ACCOUNTS = {
  approved: '000123456789',
  insufficientFunds: '000111111116',
} as const;

/** ZIP codes with a fixed AVS answer; any other ZIP matches ('Y'), no ZIP gives 'U'. */
export const AVS_TEST_ZIPS = { noMatch: '00000' } as const;

const ACH_ACCOUNT_TYPES = new Set(['checking', 'savings', 'businesschecking']);

export interface SimulatorOptions {
  /** Default: in memory, for this process only. DatabaseLedger when instances must agree. */
  ledger?: ProcessorLedger;
  now?: () => Date;
}

function decline(code: ResponseCode, extra: Partial<ProcessorResult> = {}): ProcessorResult {
  return {
    approved: false,
    responseCode: code,
    responseMessage: RESPONSE_MESSAGES[code],
    approvedAmountCents: 0n,
    ...extra,
  };
}

const APPROVAL_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Six characters from a hash of the reference: a repeat, on any instance, gets the same code. */
export function approvalCode(reference: string): string {
  const hash = crypto.createHash('sha256').update(`approval:${reference}`).digest();
  let code = '';
  for (let i = 0; i < 6; i++) code += APPROVAL_ALPHABET[hash[i]! % APPROVAL_ALPHABET.length];
  return code;
}

function approve(
  reference: string,
  amountCents: bigint,
  code: '00' | '10' = '00',
  extra: Partial<ProcessorResult> = {},
): ProcessorResult {
  return {
    approved: true,
    responseCode: code,
    responseMessage: RESPONSE_MESSAGES[code],
    approvalCode: approvalCode(reference),
    approvedAmountCents: amountCents,
    ...extra,
  };
}

/** What the request asked, without PAN, account number or CVV (those never reach the ledger). */
function digest(parts: readonly unknown[]): string {
  const json = JSON.stringify(parts, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
  return crypto.createHash('sha256').update(json).digest('hex');
}

function avsFor(zip: string | undefined): { avsCode: AvsCode; avsMessage: string } {
  const z = zip?.trim();
  const avsCode: AvsCode = !z ? 'U' : z === AVS_TEST_ZIPS.noMatch ? 'N' : 'Y';
  return { avsCode, avsMessage: AVS_MESSAGES[avsCode] };
}

function cvvFor(pan: string, cvv: string | undefined): CvvResult {
  if (cvv === undefined || cvv.trim() === '') return 'P';
  if (pan === TEST_CARDS.cvvMismatch) return 'N';
  return new RegExp(`^\\d{${cvvLength(cardBrand(pan))}}$`).test(cvv.trim()) ? 'M' : 'N';
}

function amountValid(cents: bigint): boolean {
  return cents > 0n && cents <= MAX_CENTS;
}

export class SimulatorProcessor implements Processor {
  readonly #ledger: ProcessorLedger;
  readonly #now: () => Date;

  constructor(options: SimulatorOptions = {}) {
    this.#ledger = options.ledger ?? new MemoryLedger();
    this.#now = options.now ?? (() => new Date());
  }

  async authorizeCard(req: CardAuthorization): Promise<ProcessorResult> {
    const pan = normalizeCardNumber(req.pan);
    const kind: LedgerKind = req.verifyOnly ? 'verify' : 'authorize';
    const requestDigest = digest([kind, req.amountCents, pan?.slice(-4) ?? null, req.expMonth, req.expYear]);
    return this.#answer(req.reference, kind, requestDigest, () => this.#decideCard(req, pan));
  }

  async debitAch(req: AchDebit): Promise<ProcessorResult> {
    const requestDigest = digest([
      'ach_debit',
      req.amountCents,
      req.routingNumber,
      req.accountNumber.slice(-4),
    ]);
    return this.#answer(req.reference, 'ach_debit', requestDigest, () => {
      const account = req.accountNumber.trim();
      if (!abaRoutingValid(req.routingNumber)) return decline('R28');
      if (!bankAccountNumberValid(account)) return decline('R04');
      if (!ACH_ACCOUNT_TYPES.has(req.accountType.toLowerCase())) return decline('12');
      if (!amountValid(req.amountCents)) return decline('13');
      if (account === ACH_TEST_ACCOUNTS.insufficientFunds) return decline('R01');
      return approve(req.reference, req.amountCents);
    });
  }

  capture(req: FollowUp): Promise<ProcessorResult> {
    return this.#followUp('capture', req, ['authorize']);
  }

  refund(req: FollowUp): Promise<ProcessorResult> {
    return this.#followUp('refund', req, ['authorize', 'capture', 'ach_debit']);
  }

  voidAuthorization(req: Omit<FollowUp, 'amountCents'> & { amountCents?: bigint }): Promise<ProcessorResult> {
    return this.#followUp('void', req, ['authorize', 'capture', 'ach_debit']);
  }

  async lookup(reference: string): Promise<ProcessorResult | null> {
    return (await this.#ledger.get(reference))?.result ?? null;
  }

  approvedCharges(window: ChargeWindow): Promise<RecordedCharge[]> {
    return this.#ledger.approvedCharges(window);
  }

  /**
   * The recorded answer to `reference`, else `decide()`'s, recorded unless nothing happened. The
   * record is one statement that returns the entry holding the reference, so a repeated reference
   * gets its first answer without a read first (`decide` has no side effects).
   */
  async #answer(
    reference: string,
    kind: LedgerKind,
    requestDigest: string,
    decide: () => ProcessorResult | Promise<ProcessorResult>,
  ): Promise<ProcessorResult> {
    if (!reference.trim()) throw new Error('A processor reference is required.');
    const result = await decide();
    if (result.challengeRequired || result.responseCode === '25') {
      // Not recorded (nothing happened), yet a reference already used answers as it did then.
      const prior = await this.#ledger.get(reference);
      return prior ? checked(prior.requestDigest, requestDigest, reference, prior.result) : result;
    }
    const entry = await this.#ledger.record({ reference, kind, requestDigest, result });
    return checked(entry.requestDigest, requestDigest, reference, entry.result);
  }

  #decideCard(req: CardAuthorization, pan: string | null): ProcessorResult {
    if (!pan || !luhnValid(pan)) return decline('14');
    if (!expiryInRange(req.expMonth, req.expYear) || expiryInPast(req.expMonth, req.expYear, this.#now()))
      return decline('54');
    const amount = req.amountCents;
    if (req.verifyOnly ? amount !== 0n : !amountValid(amount)) return decline('13');
    if (pan === TEST_CARDS.threeDSecure && req.threeDS?.authenticated !== true) {
      return decline('65', { challengeRequired: true });
    }
    const checks = { ...avsFor(req.zip), cvvResult: cvvFor(pan, req.cvv) };
    switch (pan) {
      case TEST_CARDS.declined:
        return decline('05', checks);
      case TEST_CARDS.expiredCard:
        return decline('54', checks);
      case TEST_CARDS.insufficientFunds:
        // Amount-based declines do not apply to a zero-amount verification (the card can be saved).
        if (!req.verifyOnly) return decline('51', checks);
        break;
      case TEST_CARDS.partialApproval:
        if (!req.verifyOnly) {
          const half = amount / 2n; // bigint division rounds down to the cent
          return half === 0n ? decline('51', checks) : approve(req.reference, half, '10', checks);
        }
        break;
    }
    if (checks.cvvResult === 'N') return decline('N7', checks);
    return approve(req.reference, req.verifyOnly ? 0n : amount, '00', checks);
  }

  async #followUp(
    kind: 'capture' | 'refund' | 'void',
    req: Omit<FollowUp, 'amountCents'> & { amountCents?: bigint },
    originalKinds: readonly LedgerKind[],
  ): Promise<ProcessorResult> {
    const requestDigest = digest([kind, req.originalReference, req.amountCents ?? null]);
    return this.#answer(req.reference, kind, requestDigest, async () => {
      const original = await this.#ledger.get(req.originalReference);
      if (!original) return decline('25');
      if (!original.result.approved || !originalKinds.includes(original.kind)) return decline('12');
      const amount = req.amountCents ?? original.result.approvedAmountCents;
      if (!amountValid(amount) || amount > original.result.approvedAmountCents) return decline('13');
      return approve(req.reference, amount);
    });
  }
}

function checked(stored: string, asked: string, reference: string, result: ProcessorResult): ProcessorResult {
  if (stored !== asked) throw new ProcessorReferenceError(reference);
  return result;
}
