/**
 * Sale and auth (ProcessTransaction, TransactionType `sale` / `auth`): the money source is
 * resolved and the card vaulted, 3-D Secure values are verified when given, a checkout session is
 * claimed before the processor is called, and every processor outcome is recorded.
 */
import crypto from 'node:crypto';
import { AmountError, toPositiveCents } from '../../../shared/money.ts';
import type { GatewayDeps } from '../gateway-call.ts';
import type { ProcessorResult } from '../processor/processor.ts';
import { type Request, RequestProblem, resolveSource, type Source } from './payment-source.ts';
import { type Claim, claimSession, releaseClaim } from './session-claim.ts';
import { insertTransaction, type Kind, type TransactionRow } from './transaction-rows.ts';

export interface SaleOutcome {
  row: TransactionRow | null;
  source: Source;
  result: ProcessorResult;
  /** Set when the issuer wants a 3-D Secure challenge first: the URL the shopper completes it at. */
  challengeUrl?: string;
  detail?: string;
}

function amountOf(r: Request, sessionCents: bigint | null): bigint {
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

async function authorize(
  deps: GatewayDeps,
  source: Source,
  reference: string,
  cents: bigint,
  r: Request,
  authenticated: boolean,
) {
  if (source.kind === 'ach') {
    return deps.processor.debitAch({
      reference,
      routingNumber: source.routingNumber,
      accountNumber: source.accountNumber,
      accountType: source.accountType,
      amountCents: cents,
    });
  }
  const pan = await deps.vault.reveal(deps.db, source.card.id);
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

/** Verifies CAVV/ECI/XID/DirectoryServerTransactionId when the request carries them. */
async function threeDsAuthenticated(
  deps: GatewayDeps,
  merchantId: string,
  source: Source,
  cents: bigint,
  r: Request,
) {
  if (!r.CAVV && !r.XID && !r.DirectoryServerTransactionId) return { authenticated: false };
  if (source.kind !== 'card')
    throw new RequestProblem('12', '3-D Secure values apply to card payments only.');
  const check = await deps.threeDs.verifyAuthentication(
    deps.db,
    {
      cavv: r.CAVV ?? '',
      eci: r.ECI ?? '',
      xid: r.XID ?? '',
      dsTransactionId: r.DirectoryServerTransactionId ?? '',
    },
    { merchantId, cardFingerprint: source.card.fingerprint, amountCents: cents },
  );
  if (!check.ok) return { authenticated: false, failure: check.reason };
  return { authenticated: true };
}

export async function runSale(
  deps: GatewayDeps,
  merchantId: string,
  kind: Extract<Kind, 'sale' | 'auth'>,
  r: Request,
  sessionToken: string | null,
  actingMerchant: string | null,
): Promise<SaleOutcome> {
  let claim: Claim | null = null;
  let sessionCents: bigint | null = null;
  if (sessionToken) {
    // Resolved before anything else: a paid or expired session refuses without touching the card.
    const session = await deps.sessions.getByToken(deps.db, sessionToken);
    if (!session || (actingMerchant !== null && session.merchantId !== actingMerchant)) {
      throw new RequestProblem('12', 'HostedPaymentToken does not name a checkout session of this merchant.');
    }
    if (session.status === 'paid') {
      throw new RequestProblem(
        '94',
        `This checkout session has already been paid (transaction ${session.transactionId}).`,
      );
    }
    if (session.status !== 'open')
      throw new RequestProblem('12', `This checkout session is ${session.status}.`);
    merchantId = session.merchantId;
    sessionCents = session.amountCents;
  }
  const cents = amountOf(r, sessionCents);
  const merchant = await deps.merchants.get(deps.db, merchantId);
  if (!merchant) throw new RequestProblem('03', 'Unknown merchant.');
  if (r.IsAchTransaction && kind === 'auth')
    throw new RequestProblem('12', 'ACH payments are sales only; auth is for cards.');
  const method = r.IsAchTransaction ? 'ach' : 'card';
  if (!merchant.paymentMethods.includes(method)) {
    throw new RequestProblem(
      '57',
      `This merchant does not accept ${method === 'ach' ? 'bank account' : 'card'} payments.`,
    );
  }
  // A shopper's wallet card may be paid only by the checkout server, for a checkout session.
  const source = await resolveSource(deps.db, deps, merchantId, r, {
    allowWallet: actingMerchant === null && !!sessionToken,
  });
  const threeDs = await threeDsAuthenticated(deps, merchantId, source, cents, r);

  if (sessionToken) claim = await claimSession(deps, sessionToken, actingMerchant);
  const reference = claim?.reference ?? `tx-${crypto.randomUUID()}`;
  let result: ProcessorResult;
  try {
    if (threeDs.failure) {
      result = {
        approved: false,
        responseCode: '65',
        responseMessage: `3-D Secure authentication was not accepted (${threeDs.failure.replace('_', ' ')}).`,
        approvedAmountCents: 0n,
      };
    } else if (claim?.kind === 'recovered') {
      result = claim.result;
    } else {
      result = await authorize(deps, source, reference, cents, r, threeDs.authenticated);
    }
  } catch (err) {
    if (claim) await releaseClaim(deps.db, claim.session.id, null);
    throw err;
  }

  if (result.challengeRequired && source.kind === 'card') {
    if (claim) await releaseClaim(deps.db, claim.session.id, null);
    if (merchant.threeDsEnrolled) {
      const challenge = await deps.threeDs.createChallenge(deps.db, {
        merchantId,
        cardFingerprint: source.card.fingerprint,
        amountCents: cents,
      });
      return {
        row: null,
        source,
        result: { ...result, responseCode: '65', responseMessage: 'Authentication required' },
        challengeUrl: `${deps.publicUrl}${challenge.url}`,
      };
    }
    result = {
      ...result,
      approved: false,
      responseCode: '65',
      responseMessage: 'The card requires 3-D Secure, which this merchant does not use.',
    };
  }

  let detail: string | undefined;
  if (claim && result.approved && result.approvedAmountCents < cents) {
    // A checkout session is paid in full or not at all: give a partial approval back at once.
    await deps.processor.voidAuthorization({
      reference: `${reference}-void`,
      originalReference: reference,
      amountCents: result.approvedAmountCents,
    });
    result = {
      ...result,
      approved: false,
      responseCode: '51',
      responseMessage: 'The card approved only part of the amount.',
      approvedAmountCents: 0n,
    };
    detail = 'The partial approval was reversed.';
  }

  const row = await deps.db.transaction(async (tx) => {
    const inserted = await insertTransaction(tx, {
      merchantId,
      kind,
      method: source.kind,
      approved: result.approved,
      amountCents: cents,
      approvedCents: result.approved ? result.approvedAmountCents : 0n,
      cardId: source.kind === 'card' ? source.card.id : null,
      ach:
        source.kind === 'ach'
          ? {
              routingLast4: source.routingNumber.slice(-4),
              accountLast4: source.accountNumber.slice(-4),
              accountType: source.accountType,
            }
          : null,
      nameOnCard: source.kind === 'card' ? source.card.nameOnCard : source.nameOnAccount,
      responseCode: result.responseCode,
      responseMessage: result.responseMessage,
      responseDetail: detail ?? null,
      approvalCode: result.approvalCode ?? null,
      avsCode: result.avsCode ?? null,
      checkoutSessionId: claim?.session.id ?? null,
      customerId: r.CustomerID,
      source: r.Source ?? (claim ? 'hosted' : null),
      customValues: [r.CustomValue1, r.CustomValue2, r.CustomValue3],
      processorReference: reference,
    });
    if (claim) await releaseClaim(tx, claim.session.id, result.approved ? inserted.id : null);
    return inserted;
  });
  return { row, source, result, ...(detail ? { detail } : {}) };
}
