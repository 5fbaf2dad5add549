/**
 * The spec adapter (issue 20; DESIGN.md §16): the port the checkout calls, `TransactionService`,
 * made of the spec's 21 operations only, for a Transaction Service that is not Payframe's. The
 * checkout's own flows (pay.ts, recovery.ts, session-view.ts, wallet-routes.ts) stay as they are:
 * they ask the typed extensions, and this adapter answers them from what the spec carries plus the
 * checkout's own records:
 *
 *   GetCheckoutSession   ← GetHostedPaymentDetails(token), the checkout's payment of the session,
 *                          its attempt in flight, and (for an attempt whose answer was lost)
 *                          GetTransactionHistories of the merchant (spec-lookup.ts)
 *   PayCheckoutSession   ← ProcessTransaction with HostedPaymentToken (card, ACH, saved card)
 *   ListEndedCheckoutSessions ← none: the spec tells of no endings (no webhooks in spec mode)
 *   SignForMerchant      ← the merchant's redirect secret the checkout holds (spec-merchants.ts)
 *   the spec's own operations (SendVerificationCode, GetStoredCards, UpdateToken, …) pass through.
 *
 * Every other extension answers `not_implemented`, which the routes turn into 501 with its message.
 * Nothing is read out of the service's message texts: a session it will not resolve is closed, and
 * its Message is carried, as it is, to the shopper (UnavailableMessage). What the spec cannot carry,
 * per mode: docs/merchant-guide.md "Spec mode".
 */
import { canonicalRedirectString, redirectParams } from '../../shared/checkout/redirect-signature.ts';
import { fromCents, toCents } from '../../shared/money.ts';
import { operations, specOperations } from '../../shared/contract/operations.ts';
import type { OperationName } from '../../shared/contract/operations.ts';
import type { OperationParams, OperationResult, TransactionService } from '../../shared/contract/service.ts';
import type { Database } from '../db/database.ts';
import { PayframeError } from '../errors.ts';
import type { CallContext } from '../gateway/port.ts';
import { paymentOfSession, startedAttempt } from './attempts.ts';
import type { Queryable } from '../db/database.ts';
import { hmacHex } from './signer.ts';
import { lookUpPayment } from './spec-lookup.ts';
import { type ForeignServiceOptions, foreignCaller } from './spec-service.ts';
import {
  type SpecMerchant,
  type SpecSecretBox,
  specMerchantById,
  specMerchantByName,
  specMerchantSecret,
} from './spec-merchants.ts';

export interface SpecPortOptions {
  service: ForeignServiceOptions;
  /** The checkout's database: its attempts, payments and merchants. */
  db: Database;
  box: SpecSecretBox;
  /** ProcessTransaction ResponseCodes that mean approved (TRANSACTION_SERVICE_APPROVED_CODES). */
  approvedCodes: ReadonlySet<string>;
  /** How long after it was sent a ProcessTransaction may still be answered: the call's limit + 1 s. */
  callLimitMs: number;
  now?: () => Date;
}

type Detail = OperationResult<'GetCheckoutSession'>;
type PayResult = OperationResult<'PayCheckoutSession'>;
type HostedDetails = OperationResult<'GetHostedPaymentDetails'>;

const SPEC_NAMES: ReadonlySet<string> = new Set(specOperations.map((o) => o.name));

/** What the page says when the session's merchant has no entry on this checkout (Payframe's words). */
export const UNKNOWN_MERCHANT_MESSAGE =
  'This payment cannot be taken here: its merchant is not set up on this checkout.';

/** A URL the shopper may be sent to: absolute http(s) only (the service's ReturnUrl is not checked by Payframe). */
function safeUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The service's transactions this checkout recorded as declines of the session's attempts. */
async function declinedTransactions(q: Queryable, token: string): Promise<Set<string>> {
  const { rows } = await q.query<{ id: string }>(
    `select transaction_id::text as id from checkout_attempts
     where session_token = $1 and state = 'declined' and transaction_id is not null`,
    [token],
  );
  return new Set(rows.map((r) => r.id));
}

/** An amount as numeric(12,2) gives it back: `24.9900` → `24.99`; unreadable → `0.00`. */
function plainAmount(value: string | null | undefined): string {
  try {
    return fromCents(toCents(value ?? '0'));
  } catch {
    return '0.00';
  }
}

/** The parts of a Detail every spec session shares. */
function baseDetail(
  token: string,
  d: Partial<HostedDetails>,
  merchant: SpecMerchant | null,
  now: Date,
): Detail {
  return {
    Token: token,
    Status: 'Open',
    PaymentInProgress: false,
    // As the checkout records it (two decimals), so the redirect signed here is the one it carries.
    Amount: plainAmount(d.Amount),
    ExpiresAt: null,
    CanceledAt: null,
    CreatedAt: now.toISOString(),
    OrderNumber: d.OrderNumber,
    Email: d.Email,
    FirstName: d.FirstName,
    LastName: d.LastName,
    Address1: d.Address1,
    Address2: d.Address2,
    Country: d.Country,
    StateProvince: d.StateProvince,
    City: d.City,
    ZipCode: d.ZipCode,
    PhoneNumber: d.PhoneNumber,
    ReturnUrl: safeUrl(d.ReturnUrl) ?? undefined,
    PaidAt: null,
    MerchantID: merchant?.id ?? '0',
    MerchantName: d.MerchantName,
    AcceptsCard: true,
    AcceptsAch: true,
    Origins: merchant?.origins ?? [],
    // The spec carries no challenge step the page could show (docs/merchant-guide.md "Spec mode").
    ThreeDSecureEnrolled: false,
    ReturnMode: 'Immediate',
    NameOnCardRequired: false,
    PaymentLink: false,
  };
}

/**
 * The redirect's signature, in the answer as Payframe's gateway gives it (so no signing happens while
 * the checkout records the payment): HMAC-SHA256 under the merchant's redirect secret of the
 * canonical string the checkout puts in the ReturnUrl (shared/checkout/redirect-signature.ts).
 */
function redirectSignature(
  secret: string | null,
  token: string,
  d: { TransactionID?: string | null; OrderNumber?: string | null; Amount: string; PaidAt: string | null },
): { RedirectSignature?: string; RedirectSignaturePrevious?: string } {
  if (!secret || !d.PaidAt) return {};
  const params = redirectParams({
    token,
    transactionId: d.TransactionID ?? null,
    orderNumber: d.OrderNumber ?? null,
    amount: d.Amount,
    currency: null,
    paidAt: new Date(d.PaidAt),
  });
  return { RedirectSignature: hmacHex(secret, canonicalRedirectString(params)) };
}

export function specTransactionService(o: SpecPortOptions): TransactionService<CallContext> {
  const call = foreignCaller(o.service);
  const now = o.now ?? (() => new Date());

  /**
   * The redirect secrets last read, by merchant id. SignForMerchant answers from here when it can:
   * it may be asked while the caller holds a transaction (pay.ts records a payment and signs its
   * answer in one), and on PGlite a query of its own would wait for that transaction forever.
   */
  const secrets = new Map<string, string>();
  const remember = (id: string, secret: string | null) => {
    if (secret === null) return;
    secrets.delete(id);
    secrets.set(id, secret);
    if (secrets.size > 1000) secrets.delete(secrets.keys().next().value!);
  };

  /** The session and its merchant as the service and this checkout know them. */
  async function resolve(token: string, context: CallContext) {
    const details = await call('GetHostedPaymentDetails', { token }, context);
    const merchant = await specMerchantByName(o.db, o.box, details.MerchantName);
    if (merchant) remember(merchant.id, merchant.secret);
    return { details, merchant };
  }

  async function getCheckoutSession(token: string, context: CallContext): Promise<Detail> {
    const at = now();
    const paid = await paymentOfSession(o.db, token);
    if (paid) {
      // The checkout recorded the payment: the receipt stays, whatever the service says of the token
      // now, and a reload needs no call to it.
      const fields = {
        Amount: paid.amount,
        OrderNumber: paid.orderNumber ?? undefined,
        ReturnUrl: paid.returnUrl ?? undefined,
        MerchantName: paid.merchantName ?? undefined,
      };
      const [known, secret] = await Promise.all([
        specMerchantById(o.db, paid.merchantId),
        specMerchantSecret(o.db, o.box, paid.merchantId),
      ]);
      const detail: Detail = {
        ...baseDetail(token, fields, known, at),
        Status: 'Paid',
        MerchantID: paid.merchantId,
        TransactionID: paid.transactionId ?? undefined,
        ApprovalCode: paid.approvalCode ?? undefined,
        MaskedCardNumber: paid.maskedCard ?? undefined,
        PaymentMethod: paid.method === 'ach' ? 'Ach' : paid.method === 'card' ? 'Card' : undefined,
        PaidAt: paid.paidAt.toISOString(),
      };
      return { ...detail, ...redirectSignature(secret, token, detail) };
    }
    const [{ details, merchant }, attempt] = await Promise.all([
      resolve(token, context),
      startedAttempt(o.db, token),
    ]);
    const base = baseDetail(token, details, merchant, at);
    if (attempt) {
      const settlesBy = new Date(attempt.startedAt.getTime() + o.callLimitMs);
      // Its calls may still be answered, or the service still at work: nothing can be concluded yet.
      if (settlesBy > at)
        return { ...base, PaymentInProgress: true, PaymentSettlesBy: settlesBy.toISOString() };
      // A service that closed the token may not name its merchant any more: without the merchant
      // there is no history to read, and nothing is concluded.
      if (!merchant) return { ...base, PaymentInProgress: true };
      // The answer was lost: the merchant's history says whether the service charged it.
      const found = await lookUpPayment(call, context, {
        merchantId: merchant.id,
        token,
        amount: base.Amount,
        startedAt: attempt.startedAt,
        now: at,
        ours: await declinedTransactions(o.db, token),
      });
      if (found.kind === 'charged') {
        const detail: Detail = {
          ...base,
          Status: 'Paid',
          TransactionID: found.transactionId,
          ApprovalCode: found.approvalCode ?? undefined,
          MaskedCardNumber: found.last4 ? `************${found.last4}` : undefined,
          PaymentMethod: attempt.method === 'ach' ? 'Ach' : 'Card',
          // The service's own time when it says one within the attempt's span, else now.
          PaidAt: (found.paidAt && found.paidAt >= attempt.startedAt && found.paidAt <= at
            ? found.paidAt
            : at
          ).toISOString(),
          Amount: found.amount,
        };
        return { ...detail, ...redirectSignature(merchant.secret, token, detail) };
      }
      if (found.kind === 'undecided') return { ...base, PaymentInProgress: true };
      // Not charged for sure only when the service, asked after its history, still offers the
      // session: else it may have been paid in a way the history does not show (yet), and the shopper
      // is told it is being confirmed.
      const after = await call('GetHostedPaymentDetails', { token }, context);
      if (!after.Success) return { ...base, PaymentInProgress: true };
    }
    if (!details.Success) return { ...base, Status: 'Expired', UnavailableMessage: details.Message ?? '' };
    if (!merchant) return { ...base, Status: 'Expired', UnavailableMessage: UNKNOWN_MERCHANT_MESSAGE };
    return base;
  }

  async function payCheckoutSession(
    params: OperationParams<'PayCheckoutSession'>,
    context: CallContext,
  ): Promise<PayResult> {
    const token = params.token ?? '';
    const { details, merchant } = await resolve(token, context);
    const base = baseDetail(token, details, merchant, now());
    const session = {
      Amount: base.Amount,
      OrderNumber: base.OrderNumber,
      ReturnUrl: base.ReturnUrl,
      MerchantID: base.MerchantID,
      MerchantName: base.MerchantName,
    };
    if (!details.Success || !merchant)
      return { ...session, Outcome: 'Closed', Status: 'Expired', PaidAt: null };
    const request = params.request!;
    const res = await call(
      'ProcessTransaction',
      {
        request: {
          ...request,
          MerchantID: merchant.id,
          Amount: base.Amount,
          HostedPaymentToken: token,
          // "Save this card" saves it to the wallet of the session's e-mail, the one the page shows;
          // a session without one saves nothing, as in Payframe mode.
          CreateToken: request.CreateToken && !!details.Email,
          ...(request.CreateToken && details.Email ? { Email: details.Email } : {}),
          // Found again by the history lookup if the answer is lost (spec-lookup.ts).
          CustomValue1: token,
        },
      },
      context,
    );
    // An answer that says nothing readable is no decline: its outcome is unknown, and the attempt is
    // settled by the history lookup like a lost one (never sent again).
    if (!res.ResponseCode?.trim() || (o.approvedCodes.has(res.ResponseCode) && res.TransactionID === '0'))
      throw new PayframeError(
        'database_unavailable',
        'The service answered a payment without a readable outcome.',
      );
    const approved = o.approvedCodes.has(res.ResponseCode);
    const common = {
      ...session,
      TransactionID: res.TransactionID,
      ResponseCode: res.ResponseCode,
      ResponseMessage: res.ResponseMessage,
      ApprovalCode: res.ApprovalCode,
      MaskedCardNumber: res.MaskedCardNumber,
      Token: res.Token,
      PaymentMethod: request.IsAchTransaction ? ('Ach' as const) : ('Card' as const),
    };
    if (!approved) return { ...common, Outcome: 'Declined', Status: 'Open', PaidAt: null };
    const paidAt = now().toISOString();
    return {
      ...common,
      Outcome: 'Approved',
      Status: 'Paid',
      PaidAt: paidAt,
      ...redirectSignature(merchant.secret, token, { ...common, PaidAt: paidAt }),
    };
  }

  const port: Record<string, (params: never, context: CallContext) => Promise<unknown>> = {};
  for (const op of operations) {
    const name = op.name as OperationName;
    port[name] = SPEC_NAMES.has(name)
      ? (params, context) => call(name, params, context)
      : async () => {
          throw new PayframeError(
            'not_implemented',
            `The Transaction Service behind this checkout speaks only the spec: ${name} is not offered.`,
          );
        };
  }
  Object.assign(port, {
    GetCheckoutSession: (p: OperationParams<'GetCheckoutSession'>, c: CallContext) =>
      getCheckoutSession(p.token ?? '', c),
    PayCheckoutSession: payCheckoutSession,
    ListEndedCheckoutSessions: async () => [],
    SignForMerchant: async (p: OperationParams<'SignForMerchant'>) => {
      const secret = secrets.get(p.merchantID) ?? (await specMerchantSecret(o.db, o.box, p.merchantID));
      remember(p.merchantID, secret);
      if (!secret) throw new PayframeError('not_found', 'No merchant matches this request.');
      return { Success: true, Signature: hmacHex(secret, p.message ?? '') };
    },
  });
  // Only the checkout's own calls (the service context) go out, under the configured credential. A
  // call on behalf of a caller (merchant REST, with its Authorization) is refused: the service's
  // credential must never stand in for one the checkout cannot check, and the spec has no operation
  // that would check it.
  const guarded: Record<string, (params: never, context: CallContext) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(port)) {
    guarded[name] = async (params, context) => {
      if (context.principal?.kind !== 'service')
        throw new PayframeError(
          'not_implemented',
          'The Transaction Service behind this checkout speaks only the spec: merchant requests are made to it directly.',
        );
      return fn(params, context);
    };
  }
  return guarded as unknown as TransactionService<CallContext>;
}
