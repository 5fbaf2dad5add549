/**
 * The steps every sale and auth shares, whether or not it pays a checkout session (sale.ts,
 * session-sale.ts): the amount, the processor call, 3-D Secure values, a challenge, the row.
 */
import { AmountError, toPositiveCents } from '../../../shared/money.ts';
import type { Queryable } from '../../db/database.ts';
import type { GatewayDeps } from '../gateway-call.ts';
import type { ProcessorResult } from '../processor/processor.ts';
import { type Request, RequestProblem, type Source } from './payment-source.ts';
import type { Kind, NewTransaction, TransactionRow } from './transaction-rows.ts';

export interface SaleOutcome {
  row: TransactionRow | null;
  source: Source;
  result: ProcessorResult;
  /** Set when the issuer wants a 3-D Secure challenge first: the URL the shopper completes it at. */
  challengeUrl?: string;
  detail?: string;
}

export function amountOf(r: Request, sessionCents: bigint | null): bigint {
  if (sessionCents !== null) {
    // The session's amount is the truth (DESIGN.md §7); a different Amount in the message is refused.
    if (r.Amount && !/^[+]?0*(\.0*)?$/.test(r.Amount)) {
      let given: bigint | null = null;
      try {
        given = toPositiveCents(r.Amount);
      } catch {
        // not an amount at all: refused just below, as any amount other than the session's
      }
      if (given !== sessionCents)
        throw new RequestProblem('13', 'Amount does not match the checkout session.');
    }
    return sessionCents;
  }
  try {
    return toPositiveCents(r.Amount);
  } catch (err) {
    if (err instanceof AmountError) throw new RequestProblem('13', err.message);
    throw err;
  }
}

/** Calls the processor. A card typed in brings its PAN along; a stored one is decrypted once here. */
export async function authorize(
  deps: GatewayDeps,
  source: Source,
  reference: string,
  cents: bigint,
  r: Request,
  authenticated: boolean,
): Promise<ProcessorResult> {
  if (source.kind === 'ach') {
    return deps.processor.debitAch({
      reference,
      routingNumber: source.routingNumber,
      accountNumber: source.accountNumber,
      accountType: source.accountType,
      amountCents: cents,
    });
  }
  const pan = source.pan ?? (await deps.vault.reveal(deps.db, source.card.id));
  return deps.processor.authorizeCard({
    reference,
    pan,
    ...(source.cvv ? { cvv: source.cvv } : {}),
    expMonth: source.card.expMonth,
    expYear: source.card.expYear,
    amountCents: cents,
    ...(r.Zip?.trim() ? { zip: r.Zip.trim() } : {}),
    ...(authenticated ? { threeDS: { authenticated: true } } : {}),
  });
}

export interface ThreeDsCheck {
  authenticated: boolean;
  failure?: string;
}

/**
 * Verifies CAVV/ECI/XID/DirectoryServerTransactionId when the request carries them, for the checkout
 * session being paid (its id; null for a merchant's own sale): a result pays what it was made for.
 */
export async function threeDsAuthenticated(
  q: Queryable,
  deps: GatewayDeps,
  merchantId: string,
  source: Source,
  cents: bigint,
  r: Request,
  checkoutSessionId: string | null,
): Promise<ThreeDsCheck> {
  if (!r.CAVV && !r.XID && !r.DirectoryServerTransactionId) return { authenticated: false };
  if (source.kind !== 'card')
    throw new RequestProblem('12', '3-D Secure values apply to card payments only.');
  const check = await deps.threeDs.verifyAuthentication(
    q,
    {
      cavv: r.CAVV ?? '',
      eci: r.ECI ?? '',
      xid: r.XID ?? '',
      dsTransactionId: r.DirectoryServerTransactionId ?? '',
    },
    { merchantId, cardFingerprint: source.card.fingerprint, amountCents: cents, checkoutSessionId },
  );
  if (!check.ok) return { authenticated: false, failure: check.reason };
  return { authenticated: true };
}

export const failedThreeDs = (failure: string): ProcessorResult => ({
  approved: false,
  responseCode: '65',
  responseMessage: `3-D Secure authentication was not accepted (${failure.replace('_', ' ')}).`,
  approvedAmountCents: 0n,
});

/**
 * The challenge for a card whose issuer asks for 3-D Secure (bound to the checkout session being
 * paid, if any), or the decline when the merchant has none.
 */
export async function challengeOrDecline(
  deps: GatewayDeps,
  merchant: { id: string; threeDsEnrolled: boolean },
  source: Extract<Source, { kind: 'card' }>,
  cents: bigint,
  result: ProcessorResult,
  checkoutSessionId: string | null,
): Promise<{ result: ProcessorResult; challengeUrl?: string }> {
  if (merchant.threeDsEnrolled) {
    const challenge = await deps.threeDs.createChallenge(deps.db, {
      merchantId: merchant.id,
      cardFingerprint: source.card.fingerprint,
      amountCents: cents,
      checkoutSessionId,
    });
    return {
      result: { ...result, responseCode: '65', responseMessage: 'Authentication required' },
      challengeUrl: `${deps.publicUrl}${challenge.url}`,
    };
  }
  return {
    result: {
      ...result,
      approved: false,
      responseCode: '65',
      responseMessage: 'The card requires 3-D Secure, which this merchant does not use.',
    },
  };
}

/**
 * What an attempt charges, apart from the processor's answer and what its session holds (merchant,
 * amount, reference): kept on a session's claim (`claim_charge`, migration 0016) so that a claim
 * cut short after the processor approved is recorded as the attempt would have recorded it
 * (claim-sweep.ts). JSON-safe, and without secrets: a card by its vault id, a bank account by its
 * last four digits.
 */
export interface ClaimCharge {
  kind: Kind;
  method: 'card' | 'ach';
  cardId: string | null;
  ach: { routingLast4: string; accountLast4: string; accountType: string } | null;
  nameOnCard: string | null;
  customerId: string | null;
  source: string | null;
  customValues: (string | null)[];
}

export function chargeOf(kind: Kind, source: Source, r: Request, sessionId: string | null): ClaimCharge {
  return {
    kind,
    method: source.kind,
    cardId: source.kind === 'card' ? source.card.id : null,
    ach:
      source.kind === 'ach'
        ? {
            routingLast4: source.routingNumber.slice(-4),
            accountLast4: source.accountNumber.slice(-4),
            accountType: source.accountType,
          }
        : null,
    nameOnCard: source.kind === 'card' ? source.nameOnCard : source.nameOnAccount,
    customerId: r.CustomerID ?? null,
    source: r.Source ?? (sessionId ? 'hosted' : null),
    customValues: [r.CustomValue1 ?? null, r.CustomValue2 ?? null, r.CustomValue3 ?? null],
  };
}

/** The row of a charge with the processor's answer to it. */
export function transactionOfCharge(
  merchantId: string,
  charge: ClaimCharge,
  cents: bigint,
  result: ProcessorResult,
  extra: { detail?: string; sessionId?: string | null; reference: string },
): NewTransaction {
  return {
    ...charge,
    merchantId,
    approved: result.approved,
    amountCents: cents,
    approvedCents: result.approved ? result.approvedAmountCents : 0n,
    responseCode: result.responseCode,
    responseMessage: result.responseMessage,
    responseDetail: extra.detail ?? null,
    approvalCode: result.approvalCode ?? null,
    avsCode: result.avsCode ?? null,
    checkoutSessionId: extra.sessionId ?? null,
    processorReference: extra.reference,
  };
}

export function transactionOf(
  merchantId: string,
  kind: Kind,
  source: Source,
  cents: bigint,
  result: ProcessorResult,
  r: Request,
  extra: { detail?: string; sessionId?: string | null; reference: string },
): NewTransaction {
  return transactionOfCharge(
    merchantId,
    chargeOf(kind, source, r, extra.sessionId ?? null),
    cents,
    result,
    extra,
  );
}

/** The method's checks of a sale: ACH is sales only, and the merchant must accept the method. */
export function checkMethod(
  kind: Extract<Kind, 'sale' | 'auth'>,
  r: Request,
  merchant: { paymentMethods: readonly string[] },
): void {
  if (r.IsAchTransaction && kind === 'auth')
    throw new RequestProblem('12', 'ACH payments are sales only; auth is for cards.');
  const method = r.IsAchTransaction ? 'ach' : 'card';
  if (!merchant.paymentMethods.includes(method)) {
    throw new RequestProblem(
      '57',
      `This merchant does not accept ${method === 'ach' ? 'bank account' : 'card'} payments.`,
    );
  }
}

/**
 * A checkout session is paid in full or not at all: a partial approval is given back at once,
 * under `<reference>-void`, so a second try (a sweep, the attempt itself) cannot give it back twice.
 */
export async function refusePartial(
  deps: GatewayDeps,
  reference: string,
  cents: bigint,
  result: ProcessorResult,
): Promise<{ result: ProcessorResult; detail?: string }> {
  if (!result.approved || result.approvedAmountCents >= cents) return { result };
  await deps.processor.voidAuthorization({
    reference: `${reference}-void`,
    originalReference: reference,
    amountCents: result.approvedAmountCents,
  });
  return {
    result: {
      ...result,
      approved: false,
      responseCode: '51',
      responseMessage: 'The card approved only part of the amount.',
      approvedAmountCents: 0n,
    },
    detail: 'The partial approval was reversed.',
  };
}
