/**
 * ProcessTransaction (spec "Payment processing"; DESIGN.md "What the spec leaves open"):
 * TransactionType sale (default), auth, capture, void, refund, case-insensitively; IsPartialRevesal
 * with SettlementAmount; TestRequest validates and answers without recording or moving money.
 * Problems a merchant can act on come back in ResponseCode/ResponseMessage (ISO 8583 codes), not as
 * faults; credentials and malformed messages are faults.
 */
import crypto from 'node:crypto';
import type { OperationParams, OperationResult } from '../../../shared/contract/service.ts';
import { AmountError, fromCents, toPositiveCents } from '../../../shared/money.ts';
import { PayframeError } from '../../errors.ts';
import { deliverReceipts } from '../../notify/receipt-queue.ts';
import { actOn } from '../auth.ts';
import type { GatewayCall, GatewayDeps } from '../gateway-call.ts';
import { checkFollowOn, runFollowOn } from '../payments/follow-on.ts';
import {
  type Request,
  RequestProblem,
  resolveSource,
  type Source,
  sourceSummary,
} from '../payments/payment-source.ts';
import { checkSchedule, createSchedule, type Schedule } from '../payments/recurring-schedule.ts';
import { runSale } from '../payments/sale.ts';
import type { TransactionRow } from '../payments/transaction-rows.ts';
import { validateCard } from '../vault/card-checks.ts';
import { addToWallet } from './wallet-operations.ts';

type Response = OperationResult<'ProcessTransaction'>;
const TYPES = new Set(['sale', 'auth', 'capture', 'void', 'refund']);

function echo(r: Request): Partial<Response> {
  return {
    CustomValue1: r.CustomValue1 ?? undefined,
    CustomValue2: r.CustomValue2 ?? undefined,
    CustomValue3: r.CustomValue3 ?? undefined,
  };
}

function fromProblem(p: RequestProblem, r: Request, now: Date): Response {
  return {
    TransactionID: '0',
    ResponseCode: p.responseCode,
    ResponseMessage: p.message,
    TransactionDate: now.toISOString(),
    ...echo(r),
  };
}

function fromRow(row: TransactionRow, r: Request, extra: Partial<Response> = {}): Response {
  return {
    TransactionID: row.id,
    ResponseCode: row.responseCode,
    ResponseMessage: row.responseMessage,
    ApprovalCode: row.approvalCode ?? undefined,
    AvsResponseCode: row.avsCode ?? undefined,
    TransactionDate: row.createdAt.toISOString(),
    ...echo(r),
    ...extra,
  };
}

/** A merchant's token for a card, with the name that merchant sent for it (its own, never shared). */
async function newToken(
  deps: GatewayDeps,
  merchantId: string,
  cardId: string,
  nameOnCard: string | null,
): Promise<string> {
  const token = `tok_${crypto.randomBytes(18).toString('base64url')}`;
  await deps.db.query(
    'insert into card_tokens (token, merchant_id, card_id, name_on_card) values ($1, $2, $3, $4)',
    [token, merchantId, cardId, nameOnCard],
  );
  return token;
}

function recurringFields(s: Schedule): Partial<Response> {
  return {
    RecurringResponse: `Schedule ${s.id} created: ${s.frequency}, next charge ${s.nextProcessDate.toISOString().slice(0, 10)}.`,
    RecurringAmount: s.amount,
    RecurringStartDate: s.nextProcessDate.toISOString(),
    RecurringEndDate: s.endDate?.toISOString(),
  };
}

/**
 * CreateToken after an approved card sale: a new Token for the merchant, and, with the shopper's
 * e-mail or phone, the card joins the shopper's wallet (GetStoredCards). Null when nothing is saved.
 */
export async function saveCardAfterSale(
  deps: GatewayDeps,
  out: { row: TransactionRow | null; source: Source; result: { approved: boolean } },
  r: Request,
): Promise<string | null> {
  if (!out.row || !out.result.approved || out.source.kind !== 'card' || !r.CreateToken) return null;
  const token = await newToken(deps, out.row.merchantId, out.source.card.id, out.source.nameOnCard);
  if (!out.source.fromToken) {
    await addToWallet(deps.db, deps, {
      cardId: out.source.card.id,
      email: r.Email,
      phone: r.Phone,
      displayName: r.DisplayName,
      nameOnCard: out.source.nameOnCard,
      merchantId: out.row.merchantId,
    });
  }
  return token;
}

/**
 * The receipts the sale queued with its row (soap-receipts.ts) go out after the answer; what this
 * misses (a kill, a failure) the checkout's background run sends (server/notify/receipt-queue.ts).
 */
function sendReceiptsSoon(deps: GatewayDeps, call: GatewayCall): void {
  const log = call.context.log;
  deps.notifier.sendLater(
    async () => {
      await deliverReceipts(deps.db, { notifier: deps.notifier, log, now: deps.now });
      return null;
    },
    (err) => log.warn({ err }, 'receipt e-mails: left to the background run'),
  );
}

async function sale(
  deps: GatewayDeps,
  call: GatewayCall,
  merchantId: string,
  type: 'sale' | 'auth',
  r: Request,
): Promise<Response> {
  const now = deps.now();
  if (r.IsRecurring && r.IsAchTransaction) {
    throw new RequestProblem('12', 'Recurring schedules charge cards; IsRecurring cannot be used with ACH.');
  }
  if (r.IsRecurring)
    checkSchedule({
      amount: r.RecurringAmount,
      start: r.RecurringStartDate,
      end: r.RecurringEndDate,
      frequency: r.RecurringFrequency,
      now,
    });
  const acting = call.principal.kind === 'merchant' ? call.principal.merchantId : null;
  const out = await runSale(deps, merchantId, type, r, r.HostedPaymentToken?.trim() || null, acting);
  const summary = sourceSummary(out.source);
  if (!out.row) {
    return {
      TransactionID: '0',
      ResponseCode: out.result.responseCode,
      ResponseMessage: out.result.responseMessage,
      ResponseMessageDetail: out.challengeUrl,
      MaskedCardNumber: summary.masked,
      TransactionDate: now.toISOString(),
      ...echo(r),
    };
  }
  const extra: Partial<Response> = {
    ResponseMessageDetail:
      out.detail ??
      (out.row.approvedCents < out.row.amountCents && out.result.approved
        ? `Approved ${fromCents(out.row.approvedCents)} of ${fromCents(out.row.amountCents)}.`
        : undefined),
    AvsResponse: out.result.avsMessage,
    MaskedCardNumber: summary.masked,
  };
  if (out.result.approved && (r.CardHolderReceipt || r.MerchantReceipt)) sendReceiptsSoon(deps, call);
  const saved = await saveCardAfterSale(deps, out, r);
  if (saved) extra.Token = saved;
  if (out.result.approved && out.source.kind === 'card' && r.IsRecurring) {
    const token =
      saved ?? (await newToken(deps, out.row.merchantId, out.source.card.id, out.source.nameOnCard));
    extra.Token = token;
    const schedule = await createSchedule(deps.db, {
      merchantId: out.row.merchantId,
      cardId: out.source.card.id,
      token,
      amount: r.RecurringAmount,
      start: r.RecurringStartDate,
      end: r.RecurringEndDate,
      frequency: r.RecurringFrequency,
      firstName: r.FirstName,
      lastName: r.LastName,
      cardName: out.source.nameOnCard,
      email: r.Email,
      originTransactionId: out.row.id,
      now,
    });
    Object.assign(extra, recurringFields(schedule));
  }
  return fromRow(out.row, r, extra);
}

async function testRequest(
  deps: GatewayDeps,
  merchantId: string,
  type: string,
  r: Request,
): Promise<Response> {
  // Validates what a real request would, without recording anything, vaulting the card, or
  // moving money: the same checks, the same ResponseCodes.
  if (type === 'sale' || type === 'auth') {
    const hosted = r.HostedPaymentToken?.trim();
    if (hosted) {
      const session = await deps.sessions.getByToken(deps.db, hosted);
      if (!session || (merchantId !== '0' && session.merchantId !== merchantId)) {
        throw new RequestProblem(
          '12',
          'HostedPaymentToken does not name a checkout session of this merchant.',
        );
      }
      if (session.status === 'paid')
        throw new RequestProblem('94', 'This checkout session has already been paid.');
      if (session.status !== 'open')
        throw new RequestProblem('12', `This checkout session is ${session.status}.`);
    } else {
      try {
        toPositiveCents(r.Amount);
      } catch (err) {
        if (err instanceof AmountError) throw new RequestProblem('13', err.message);
        throw err;
      }
    }
    if (r.IsAchTransaction || r.SaveCardID?.trim()) {
      await resolveSource(deps.db, deps, merchantId, r); // ACH checks and token look-ups store nothing
    } else {
      if (!r.CardNumber?.trim())
        throw new RequestProblem(
          '30',
          'Give CardNumber and ExpirationDate, a SaveCardID, or an ACH account.',
        );
      if (!r.ExpirationDate?.trim())
        throw new RequestProblem('30', 'ExpirationDate is required with a CardNumber.');
      const checked = validateCard(
        { number: r.CardNumber, expiry: r.ExpirationDate, cvv: r.CVV2?.trim() || null },
        deps.now(),
      );
      if (!checked.ok) {
        throw new RequestProblem(
          checked.reason === 'expired' ? '54' : checked.reason === 'invalid_cvv' ? 'N7' : '14',
          checked.message,
        );
      }
    }
  } else {
    await checkFollowOn(
      deps,
      merchantId,
      r.IsPartialRevesal ? 'reversal' : (type as 'capture' | 'void' | 'refund'),
      r,
    );
  }
  return {
    TransactionID: '0',
    ResponseCode: '00',
    ResponseMessage: 'Test request accepted: nothing was recorded and no money moved.',
    TransactionDate: deps.now().toISOString(),
    ...echo(r),
  };
}

export async function processTransaction(
  params: OperationParams<'ProcessTransaction'>,
  call: GatewayCall,
  deps: GatewayDeps,
): Promise<OperationResult<'ProcessTransaction'>> {
  const r = params.request;
  if (!r) throw new PayframeError('invalid_request', 'The request element is required.');
  const hosted = r.HostedPaymentToken?.trim();
  if (call.principal.kind === 'service' && !hosted) {
    throw new PayframeError(
      'forbidden',
      'The service credential may only pay checkout sessions (HostedPaymentToken).',
    );
  }
  const merchantId = call.principal.kind === 'service' ? '0' : actOn(call.principal, r.MerchantID);
  if (
    call.principal.kind === 'merchant' &&
    r.TransactionKey &&
    !(await deps.merchants.verifyKey(deps.db, merchantId, r.TransactionKey))
  ) {
    throw new PayframeError('forbidden', 'The TransactionKey in the message does not match the credential.');
  }
  const type = (r.TransactionType?.trim() || 'sale').toLowerCase();
  try {
    if (!TYPES.has(type))
      throw new RequestProblem(
        '12',
        `Unknown TransactionType '${r.TransactionType}'. Use sale, auth, capture, void or refund.`,
      );
    if (r.TestRequest) return await testRequest(deps, merchantId, type, r);
    if (r.IsPartialRevesal) return fromRow(await runFollowOn(deps, merchantId, 'reversal', r), r);
    if (type === 'sale' || type === 'auth') return await sale(deps, call, merchantId, type, r);
    if (hosted) throw new RequestProblem('12', `A ${type} cannot carry a HostedPaymentToken.`);
    return fromRow(await runFollowOn(deps, merchantId, type as 'capture' | 'void' | 'refund', r), r);
  } catch (err) {
    if (err instanceof RequestProblem) return fromProblem(err, r, deps.now());
    throw err;
  }
}
