/**
 * The merchant's payments and settlement in the dashboard (issue 15 "Payments"), each a call of the
 * Transaction Service as the signed-in user: the gateway applies its own rules (never more than
 * remains, a voided or settled payment refused) and records each change with the user.
 *
 *   GET  /overview?currency=          GetPaymentOverview (one currency's figures)
 *   GET  /payments                    ListPayments (filters: payment-filter.ts)
 *   GET  /payments/export.csv         ListPayments, every page, streamed (payments-csv.ts)
 *   GET  /payments/:id                GetPayment + the checkout's webhook deliveries of its session
 *   POST /payments/:id/refund|void|capture   ProcessTransaction refund / void / capture
 *   GET  /settlement                  GetSettlementSummary
 *   POST /settlement/settle           SettleTransaction (all pending)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Amount } from '../../shared/checkout/fields.ts';
import { requiredDefaults } from '../../shared/contract/neutral.ts';
import { parseOr400 } from '../checkout/field-errors.ts';
import { webhookDeliveriesOf } from '../checkout/webhook-deliveries.ts';
import { PayframeError } from '../errors.ts';
import { type PaymentFilter, paymentFilter } from './payment-filter.ts';
import { CSV_PAGE_SIZE, paymentsCsv } from './payments-csv.ts';
import { type DashboardDeps, type Verified, verified } from './user-context.ts';
import { dayView, eventView, paymentView, webhookView } from './views.ts';

const TRANSACTION_ID = /^[1-9]\d{0,18}$/;

const RefundBody = z.strictObject({ amount: Amount });
const CaptureBody = z.strictObject({ amount: Amount.optional() });
const EmptyBody = z.strictObject({});
/** The overview's currency (ISO 4217); absent: the one with the most payments. */
const OverviewQuery = z.object({
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/)
    .optional(),
});

type Action = 'refund' | 'void' | 'capture';

/** ISO 8583 codes that approve: 00, and 10 (partially approved). */
const APPROVED = new Set(['00', '10']);

function transactionIdOf(request: FastifyRequest): string {
  const id = (request.params as { id?: string }).id ?? '';
  if (!TRANSACTION_ID.test(id)) throw new PayframeError('not_found', 'This payment does not exist.');
  return id;
}

/** One of the merchant's payments with its timeline; 404 for anyone else's (the gateway's answer). */
async function detail(deps: DashboardDeps, user: Verified, id: string) {
  const d = await deps.checkout.port.GetPayment({ transactionID: id }, user.context);
  if (!d.Payment) throw new PayframeError('not_found', 'This payment does not exist.');
  const token = d.Payment.SessionToken;
  const webhooks = token ? await webhookDeliveriesOf(deps.checkout.db, user.session.MerchantID, token) : [];
  return {
    payment: paymentView(d.Payment),
    events: (d.Events ?? []).map(eventView),
    refundable: d.RefundableAmount,
    capturable: d.CapturableAmount,
    voidable: d.Voidable,
    webhooks: webhooks.map(webhookView),
  };
}

/** The amount an action's body names: required for a refund, optional for a capture, none for a void. */
function amountOf(action: Action, body: unknown): string | undefined {
  if (action === 'refund') return parseOr400(RefundBody, body).amount;
  if (action === 'capture') return parseOr400(CaptureBody, body).amount;
  parseOr400(EmptyBody, body);
  return undefined;
}

async function act(deps: DashboardDeps, request: FastifyRequest, action: Action) {
  const user = await verified(deps, request);
  const id = transactionIdOf(request);
  const amount = amountOf(action, request.body);
  // Another merchant's id is 404 here, before anything is asked of ProcessTransaction.
  const payment = await deps.checkout.port.GetPayment({ transactionID: id }, user.context);
  if (!payment.Payment) throw new PayframeError('not_found', 'This payment does not exist.');
  // A refund goes where the gateway takes it: the sale, or an authorisation's capture. With
  // nothing left to refund the gateway's own answer says so (on the payment itself).
  const original = action === 'refund' ? (payment.RefundTransactionID ?? id) : id;
  const res = await deps.checkout.port.ProcessTransaction(
    {
      request: {
        ...requiredDefaults('Request'),
        MerchantID: user.session.MerchantID,
        OriginalTransactionID: original,
        TransactionType: action,
        // Absent for a capture: all that remains (gateway.md "Capture, void, refund").
        Amount: amount ?? '0',
      },
    },
    user.context,
  );
  return {
    // 0: nothing was recorded (a refusal such as "more than remains").
    ...(res.TransactionID !== '0' ? { transactionId: res.TransactionID } : {}),
    approved: APPROVED.has(res.ResponseCode ?? ''),
    responseCode: res.ResponseCode ?? null,
    message: res.ResponseMessage ?? '',
  };
}

async function exportCsv(deps: DashboardDeps, request: FastifyRequest, reply: FastifyReply) {
  const user = await verified(deps, request);
  const filter: PaymentFilter = { ...paymentFilter(request.query), Limit: CSV_PAGE_SIZE };
  const list = (f: PaymentFilter) => deps.checkout.port.ListPayments({ filter: f }, user.context);
  const first = await list(filter);
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', 'attachment; filename="payments.csv"')
    .send(
      paymentsCsv(first, filter, list).on('error', (err) =>
        request.log.warn({ err }, 'payments export cut short'),
      ),
    );
}

/** Amounts per currency, as the gateway lists them (never added together). */
function totalsView(totals: readonly { Currency?: string | null; Amount: string }[] | null | undefined) {
  return (totals ?? []).map((t) => ({ currency: t.Currency ?? null, amount: t.Amount }));
}

async function settle(deps: DashboardDeps, request: FastifyRequest) {
  const user = await verified(deps, request);
  parseOr400(EmptyBody, request.body);
  const port = deps.checkout.port;
  const res = await port.SettleTransaction(
    { request: { MerchantID: user.session.MerchantID, TransactionID: '' } },
    user.context,
  );
  if (res.ResponseCode !== '00') return { count: 0, totals: [] };
  // The new batch as the summary lists it: its count and net total as fields, not the message's text.
  const summary = await port.GetSettlementSummary({}, user.context);
  const batch = (summary.Batches ?? []).find((b) => b.BatchID === res.SettlementID);
  if (!batch) throw new PayframeError('internal', 'The batch was settled but could not be read back.');
  return { batchId: batch.BatchID, count: batch.TransactionCount, totals: totalsView(batch.Totals) };
}

export async function paymentRoutes(app: FastifyInstance, deps: DashboardDeps): Promise<void> {
  const port = deps.checkout.port;
  app.get('/overview', async (request) => {
    const user = await verified(deps, request);
    const { currency } = parseOr400(OverviewQuery, request.query);
    const o = await port.GetPaymentOverview(currency ? { currency } : {}, user.context);
    return {
      currency: o.Currency ?? null,
      currencies: o.Currencies ?? [],
      today: o.Today ? dayView(o.Today) : null,
      days: (o.Days ?? []).map(dayView),
    };
  });
  app.get('/payments', async (request) => {
    const user = await verified(deps, request);
    const filter = paymentFilter(request.query);
    const page = await port.ListPayments({ filter }, user.context);
    return { payments: (page.Payments ?? []).map(paymentView), hasMore: page.HasMore };
  });
  app.get('/payments/export.csv', (request, reply) => exportCsv(deps, request, reply));
  app.get('/payments/:id', async (request) => {
    const user = await verified(deps, request);
    return detail(deps, user, transactionIdOf(request));
  });
  for (const action of ['refund', 'void', 'capture'] as const) {
    app.post(`/payments/:id/${action}`, (request) => act(deps, request, action));
  }
  app.get('/settlement', async (request) => {
    const user = await verified(deps, request);
    const s = await port.GetSettlementSummary({}, user.context);
    return {
      pendingCount: s.PendingCount,
      pendingTotals: totalsView(s.PendingTotals),
      batches: (s.Batches ?? []).map((b) => ({
        id: b.BatchID,
        settledAt: new Date(b.SettledAt).toISOString(),
        count: b.TransactionCount,
        totals: totalsView(b.Totals),
      })),
    };
  });
  app.post('/settlement/settle', (request) => settle(deps, request));
}
