/**
 * Refund, capture and void from the merchant REST API (docs/merchant-guide.md "Payments, refunds,
 * captures and voids"), exactly once per `Idempotency-Key` by the pay path's rules, not session
 * creation's:
 *
 * - the key is claimed as the pay's are (idempotency.ts: scoped to the merchant, same key + another
 *   body → 422 `idempotency_mismatch`, a completed key replays its answer byte for byte);
 * - the action is recorded (merchant_payment_actions, migration 0038) before the gateway is called,
 *   and each ProcessTransaction it sends is recorded before it is sent, with a reference of its own
 *   in CustomValue1;
 * - a call whose answer is lost (the gateway unreachable, a timeout, a crash) leaves the action
 *   `started` and its key in flight: the same key answers 409 until the action is stale
 *   (STALE_PAYMENT_SECONDS, longer than any call may take), then the calls in doubt are looked up
 *   by their reference in GetTransactionHistories and the action goes on from what the gateway
 *   recorded — a refund the gateway made is never made again;
 * - one action of a payment runs at a time (a unique index on the started ones): a second one
 *   meanwhile is 409 `conflict`, so two refunds can never together take more than was captured.
 *   The gateway's own row lock keeps refunds made elsewhere (the dashboard, SOAP) within it too.
 *
 * A refund goes where the gateway takes one (GetPayment's RefundTransactionID: the sale, or an
 * authorisation's newest capture with something left) and, across several captures, one capture
 * after another until the amount asked is refunded.
 */
import type { FastifyReply } from 'fastify';
import type { PaymentActionResult, RefundReason } from '../../shared/checkout/payment-schemas.ts';
import { requiredDefaults } from '../../shared/contract/neutral.ts';
import type { OperationResult } from '../../shared/contract/service.ts';
import type { ErrorCode } from '../../shared/errors.ts';
import { fromCents, toCents } from '../../shared/money.ts';
import { PayframeError } from '../errors.ts';
import type { CallContext } from '../gateway/port.ts';
import type { CheckoutDeps } from './deps.ts';
import { claimKey, completeKey, fingerprintOf, type KeyScope, releaseKey } from './idempotency.ts';
import { merchantPaymentView } from './payment-view.ts';

export type PaymentAction = 'refund' | 'capture' | 'void';

/** One endpoint name for the three, so a key names one request of the merchant whichever it was. */
export const ACTION_ENDPOINT = 'POST /v1/payments/{id}/refunds|capture|void';
export const REPLAYED_HEADER = 'idempotent-replayed';

/** ISO 8583 codes that approve: 00, and 10 (partially approved). */
const APPROVED = new Set(['00', '10']);
/** A claim without an action older than this was left by a request that died before recording it. */
const ABANDONED_MS = 2 * 60 * 1000;
const HOUR_MS = 3_600_000;

/** Errors that say the gateway did not act on the call: anything else leaves it in doubt. */
const NOT_ACTED: ReadonlySet<ErrorCode> = new Set([
  'unauthorized',
  'forbidden',
  'not_found',
  'invalid_request',
  'validation_failed',
  'rate_limited',
  'not_implemented',
]);

interface Step {
  /** CustomValue1 of the call: how GetTransactionHistories finds it again. */
  reference: string;
  /** OriginalTransactionID: the payment, or the capture a refund goes to. */
  target: string;
  amount: string;
  /** started: sent, answer not known; refused: the gateway recorded nothing. */
  state: 'started' | 'approved' | 'declined' | 'refused' | 'lost';
  transactionId?: string;
  responseCode?: string;
}

interface ActionRow {
  id: string;
  paymentId: string;
  action: PaymentAction;
  amount: string | null;
  reason: RefundReason | null;
  steps: Step[];
  startedAt: Date;
}

export interface ActionRequest {
  merchantId: string;
  context: CallContext;
  paymentId: string;
  action: PaymentAction;
  key: string;
  amount?: string;
  reason?: RefundReason;
}

type Detail = OperationResult<'GetPayment'>;

function rowOf(r: Record<string, unknown>): ActionRow {
  const steps = typeof r.steps === 'string' ? (JSON.parse(r.steps) as Step[]) : (r.steps as Step[]);
  return {
    id: String(r.id),
    paymentId: String(r.payment_id),
    action: r.action as PaymentAction,
    amount: r.amount === null ? null : fromCents(toCents(String(r.amount))),
    reason: (r.reason as RefundReason | null) ?? null,
    steps,
    startedAt: r.started_at as Date,
  };
}

const COLUMNS = 'id, payment_id, action, amount, reason, steps, started_at';

async function startedAction(deps: CheckoutDeps, merchantId: string, where: string, value: string) {
  const { rows } = await deps.db.query(
    `select ${COLUMNS} from merchant_payment_actions
      where merchant_id = $1 and ${where} = $2 and state = 'started'`,
    [merchantId, value],
  );
  return rows[0] ? rowOf(rows[0]) : null;
}

async function saveSteps(deps: CheckoutDeps, row: ActionRow): Promise<void> {
  await deps.db.query('update merchant_payment_actions set steps = $2::jsonb where id = $1', [
    row.id,
    JSON.stringify(row.steps),
  ]);
}

async function finish(deps: CheckoutDeps, row: ActionRow, state: 'succeeded' | 'declined' | 'failed') {
  await deps.db.query(
    `update merchant_payment_actions set state = $2, steps = $3::jsonb, finished_at = $4
      where id = $1 and state = 'started'`,
    [row.id, state, JSON.stringify(row.steps), deps.now()],
  );
}

const isStale = (deps: CheckoutDeps, row: ActionRow) =>
  deps.now().getTime() - row.startedAt.getTime() > deps.staleAttemptMs;

/** 409 while an action runs, with the time it turns stale (and may be settled) as Retry-After. */
function inProgress(deps: CheckoutDeps, row: ActionRow | null, message: string): PayframeError {
  const until = row ? row.startedAt.getTime() + deps.staleAttemptMs + 1 : deps.now().getTime() + 2000;
  return new PayframeError('conflict', message, undefined, {
    retryAfterSeconds: Math.max(1, Math.ceil((until - deps.now().getTime()) / 1000)),
  });
}

async function paymentDetail(deps: CheckoutDeps, context: CallContext, id: string): Promise<Detail> {
  const d = await deps.port.GetPayment({ transactionID: id }, context);
  if (!d.Payment) throw new PayframeError('not_found', 'This payment does not exist.');
  return d;
}

function amountError(code: string, message: string): PayframeError {
  return new PayframeError('validation_failed', undefined, [{ field: 'amount', code, message }]);
}

/** The first run's check of what was asked against what the gateway would still accept. */
function check(detail: Detail, action: PaymentAction, amount: string | null): void {
  const p = detail.Payment!;
  const asked = amount === null ? null : toCents(amount);
  if (action === 'void') {
    if (!detail.Voidable)
      throw new PayframeError('validation_failed', undefined, [
        {
          field: '',
          code: 'not_voidable',
          message: 'Only an approved payment not yet settled, captured or refunded can be voided.',
        },
      ]);
    return;
  }
  if (action === 'capture') {
    const left = toCents(detail.CapturableAmount);
    if (left === 0n) throw amountError('nothing_to_capture', 'This payment has nothing left to capture.');
    if (asked !== null && asked > left)
      throw amountError(
        'amount_too_large',
        `amount is more than the ${fromCents(left)} that can be captured.`,
      );
    return;
  }
  const refundable =
    p.State === 'Declined' || p.State === 'Voided'
      ? 0n
      : toCents(p.CapturedAmount) - toCents(p.RefundedAmount);
  if (refundable <= 0n) throw amountError('nothing_to_refund', 'This payment has nothing left to refund.');
  if (asked !== null && asked > refundable)
    throw amountError(
      'amount_too_large',
      `amount is more than the ${fromCents(refundable)} that can be refunded.`,
    );
}

/** What became of a call in doubt, from the gateway's history of the merchant (its reference). */
async function lookUp(deps: CheckoutDeps, req: ActionRequest, row: ActionRow, step: Step): Promise<void> {
  const history = await deps.port.GetTransactionHistories(
    {
      startDate: new Date(row.startedAt.getTime() - 14 * HOUR_MS).toISOString(),
      endDate: new Date(row.startedAt.getTime() + 24 * HOUR_MS).toISOString(),
      merchantID: req.merchantId,
    },
    req.context,
  );
  const found = history.find((t) => t.CustomValue1 === step.reference);
  if (!found) {
    // Stale: no call of it can still arrive (each call's limit is below the stale time).
    step.state = 'lost';
    return;
  }
  step.transactionId = found.TransactionID;
  step.state = found.SettlementStatus === 'Declined' ? 'declined' : 'approved';
}

/** Sends one call, recorded first; a lost answer leaves the action to be settled by its key. */
async function send(deps: CheckoutDeps, req: ActionRequest, row: ActionRow, step: Step): Promise<void> {
  row.steps.push(step);
  await saveSteps(deps, row);
  let res: OperationResult<'ProcessTransaction'>;
  try {
    res = await deps.port.ProcessTransaction(
      {
        request: {
          ...requiredDefaults('Request'),
          MerchantID: req.merchantId,
          OriginalTransactionID: step.target,
          TransactionType: row.action,
          Amount: row.action === 'void' ? '0' : step.amount,
          CustomValue1: step.reference,
        },
      },
      req.context,
    );
  } catch (err) {
    if (err instanceof PayframeError && NOT_ACTED.has(err.code)) {
      step.state = 'refused';
      await saveSteps(deps, row);
    }
    throw err;
  }
  step.responseCode = res.ResponseCode ?? undefined;
  if (res.TransactionID === '0') step.state = 'refused';
  else {
    step.transactionId = res.TransactionID;
    step.state = APPROVED.has(res.ResponseCode ?? '') ? 'approved' : 'declined';
  }
  await saveSteps(deps, row);
}

const moved = (row: ActionRow) =>
  row.steps.filter((s) => s.state === 'approved').reduce((sum, s) => sum + toCents(s.amount), 0n);

/** Runs (or goes on with) an action until it is done; throws when it cannot be answered yet. */
async function run(deps: CheckoutDeps, req: ActionRequest, row: ActionRow): Promise<PaymentActionResult> {
  // Calls in doubt first: what the gateway recorded of them decides what is left to do.
  for (const step of row.steps.filter((s) => s.state === 'started')) {
    await lookUp(deps, req, row, step);
    await saveSteps(deps, row);
  }
  let detail = await paymentDetail(deps, req.context, row.paymentId);
  if (row.steps.length === 0) check(detail, row.action, row.amount);
  const n = () => `pfa-${row.id}-${row.steps.length}`;
  const declined = () => row.steps.some((s) => s.state === 'declined');
  const refused = () => row.steps.some((s) => s.state === 'refused');
  if (row.action === 'refund') {
    const asked = row.amount === null ? null : toCents(row.amount);
    while (!declined() && !refused()) {
      const need = asked === null ? null : asked - moved(row);
      const target = detail.RefundTransactionID;
      const left = toCents(detail.RefundableAmount);
      if ((need !== null && need <= 0n) || !target || left === 0n) break;
      const cents = need === null || need > left ? left : need;
      await send(deps, req, row, { reference: n(), target, amount: fromCents(cents), state: 'started' });
      detail = await paymentDetail(deps, req.context, row.paymentId);
    }
  } else if (
    !row.steps.some((s) => s.state === 'approved' || s.state === 'declined' || s.state === 'refused')
  ) {
    const amount =
      row.action === 'capture' ? (row.amount ?? detail.CapturableAmount) : detail.Payment!.ApprovedAmount;
    await send(deps, req, row, { reference: n(), target: row.paymentId, amount, state: 'started' });
    detail = await paymentDetail(deps, req.context, row.paymentId);
  }
  const total = moved(row);
  if (total === 0n && refused() && !declined()) {
    // The gateway took nothing: someone else (the dashboard, SOAP) used up what was left meanwhile.
    await finish(deps, row, 'failed');
    throw new PayframeError(
      'conflict',
      'The payment changed while this request ran (another refund, capture or void). Read it and try again.',
    );
  }
  const decline = row.steps.find((s) => s.state === 'declined');
  const result: PaymentActionResult = {
    action: row.action,
    status: total === 0n && decline ? 'declined' : 'succeeded',
    amount: fromCents(total),
    ...(row.reason ? { reason: row.reason } : {}),
    transactionIds: row.steps.filter((s) => s.state === 'approved').map((s) => s.transactionId!),
    ...(total === 0n && decline?.responseCode ? { declineCode: decline.responseCode } : {}),
    payment: merchantPaymentView(detail),
  };
  await finish(deps, row, result.status);
  return result;
}

function send200(reply: FastifyReply, json: string) {
  return reply.code(200).type('application/json; charset=utf-8').send(json);
}

/** Settles the action and stores its answer under its key; a failure frees the key (nothing moved). */
async function runAndAnswer(
  deps: CheckoutDeps,
  req: ActionRequest,
  scope: KeyScope,
  row: ActionRow,
): Promise<string> {
  let result: PaymentActionResult;
  try {
    result = await run(deps, req, row);
  } catch (err) {
    const nothingSent = row.steps.every((s) => s.state === 'refused' || s.state === 'lost');
    const stillStarted = row.steps.some((s) => s.state === 'started');
    if (nothingSent && !stillStarted) {
      await finish(deps, row, 'failed');
      await releaseKey(deps.db, scope);
    }
    if (stillStarted) {
      // Sent, and its answer lost: the same key settles it once the action is stale (above).
      const until = row.startedAt.getTime() + deps.staleAttemptMs + 1;
      throw new PayframeError(
        'database_unavailable',
        'The outcome is not known yet. Retry with the same Idempotency-Key: it answers what was done, and does nothing twice.',
        undefined,
        { cause: err, retryAfterSeconds: Math.max(1, Math.ceil((until - deps.now().getTime()) / 1000)) },
      );
    }
    throw err;
  }
  const json = JSON.stringify(result);
  await completeKey(deps.db, scope, 200, json, deps.now());
  return json;
}

/** Records a new action of the payment, or null while another one of it is started. */
async function insertAction(deps: CheckoutDeps, req: ActionRequest): Promise<ActionRow | null> {
  const { rows } = await deps.db.query(
    `insert into merchant_payment_actions
       (merchant_id, idempotency_key, payment_id, action, state, amount, reason, started_at)
     values ($1, $2, $3, $4, 'started', $5, $6, $7) on conflict do nothing
     returning ${COLUMNS}`,
    [req.merchantId, req.key, req.paymentId, req.action, req.amount ?? null, req.reason ?? null, deps.now()],
  );
  return rows[0] ? rowOf(rows[0]) : null;
}

/**
 * Runs the merchant's refund, capture or void once per key and answers 200 with what it did; the
 * same key answers the same. `fingerprintBody`: the validated request (its fingerprint is stored).
 */
export async function actOnce(
  deps: CheckoutDeps,
  reply: FastifyReply,
  req: ActionRequest,
  fingerprintBody: unknown,
): Promise<FastifyReply> {
  const scope: KeyScope = {
    sessionToken: `merchant:${req.merchantId}`,
    endpoint: ACTION_ENDPOINT,
    key: req.key,
  };
  const fingerprint = fingerprintOf(deps.secret, ACTION_ENDPOINT, fingerprintBody);
  let claim = await claimKey(deps.db, scope, fingerprint, deps.now());
  if (claim.kind === 'in_flight') {
    const own = await startedAction(deps, req.merchantId, 'idempotency_key', req.key);
    if (own && isStale(deps, own)) {
      // Cut short earlier: settled now from what the gateway recorded (the merchant's own calls).
      return send200(reply, await runAndAnswer(deps, req, scope, own));
    }
    if (!own && deps.now().getTime() - claim.since.getTime() > ABANDONED_MS) {
      await releaseKey(deps.db, scope);
      claim = await claimKey(deps.db, scope, fingerprint, deps.now());
    }
    if (claim.kind === 'in_flight') {
      // Nothing about a key is told before the caller is proven (GetPayment checks the credential).
      await paymentDetail(deps, req.context, req.paymentId);
      throw inProgress(deps, own, 'A request with this Idempotency-Key is still running. Try again shortly.');
    }
  }
  switch (claim.kind) {
    case 'mismatch':
      await deps.port.Verify3DSecureMerchant({ merchantID: req.merchantId }, req.context);
      throw new PayframeError(
        'idempotency_mismatch',
        'This Idempotency-Key was used with another request body.',
      );
    case 'replay':
      // The gateway checks the credential and shows a merchant its own payments only.
      await paymentDetail(deps, req.context, req.paymentId);
      reply.header(REPLAYED_HEADER, 'true');
      return send200(reply, claim.body);
    case 'claimed':
      break;
  }
  let row = await insertAction(deps, req);
  if (!row) {
    const other = await startedAction(deps, req.merchantId, 'payment_id', req.paymentId);
    if (other && isStale(deps, other)) {
      // Another key's action cut short: settle it first (its key then replays its answer).
      const otherScope = { ...scope, key: await keyOf(deps, other) };
      try {
        await runAndAnswer(deps, req, otherScope, other);
      } catch (err) {
        await releaseKey(deps.db, scope);
        throw err;
      }
      row = await insertAction(deps, req);
    }
    if (!row) {
      await releaseKey(deps.db, scope);
      throw inProgress(deps, other, 'Another refund, capture or void of this payment is in progress.');
    }
  }
  return send200(reply, await runAndAnswer(deps, req, scope, row));
}

async function keyOf(deps: CheckoutDeps, row: ActionRow): Promise<string> {
  const { rows } = await deps.db.query<{ idempotency_key: string }>(
    'select idempotency_key from merchant_payment_actions where id = $1',
    [row.id],
  );
  return rows[0]!.idempotency_key;
}
