/**
 * What the crash tests share besides the servers (servers.ts): shoppers' clients that pay over HTTP
 * and retry like a real client would, and the invariants of "pay exactly once" checked in the
 * database afterwards (DESIGN.md §8; security-requirements.md REL-1, REL-2, REL-9).
 */
import crypto from 'node:crypto';
import type { Queryable } from '../../../server/db/database.ts';
import { type Merchant, sleep } from './servers.ts';

// ---- clients ------------------------------------------------------------------------------------

const CARD = { number: '4242424242424242', expiry: '12/30', cvv: '123', name: 'Ada' };

/** A random address in 10.0.0.0/8: one simulated shopper (or merchant server). */
export function randomIp(): string {
  const b = crypto.randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

export async function createSession(
  baseUrl: string,
  merchant: Merchant,
  orderNumber: string,
  ip = randomIp(),
): Promise<string> {
  const r = await fetch(`${baseUrl}/v1/checkout-sessions`, {
    method: 'POST',
    headers: {
      'x-forwarded-for': ip,
      authorization: `Basic ${Buffer.from(`${merchant.merchantId}:${merchant.transactionKey}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ amount: '10.00', currency: 'USD', orderNumber, returnUrl: merchant.returnUrl }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await r.text();
  if (r.status !== 201) throw new HttpError(r.status, text);
  return (JSON.parse(text) as { token: string }).token;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}: ${body.slice(0, 300)}`);
  }
}

export type PayResult =
  | { kind: 'answer'; status: number; body: string; retryAfter: string | null }
  /** No answer: the connection failed or was cut (the outcome is unknown to the client). */
  | { kind: 'no_answer'; error: string };

export async function payRequest(
  baseUrl: string,
  token: string,
  key: string,
  ip: string,
): Promise<PayResult> {
  try {
    const r = await fetch(`${baseUrl}/api/checkout/sessions/${token}/pay`, {
      method: 'POST',
      headers: {
        'x-payframe-client': 'widget',
        'content-type': 'application/json',
        'idempotency-key': key,
        'x-forwarded-for': ip,
      },
      body: JSON.stringify({ method: 'card', card: CARD }),
      signal: AbortSignal.timeout(20_000),
    });
    return {
      kind: 'answer',
      status: r.status,
      body: await r.text(),
      retryAfter: r.headers.get('retry-after'),
    };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return { kind: 'no_answer', error: cause?.code ?? (err as Error).message };
  }
}

/** A pay answer that ends the payment for the client: 200 with a final status. */
export function finalOf(r: PayResult): { status: string; transactionId: string | null } | null {
  if (r.kind !== 'answer' || r.status !== 200) return null;
  const body = JSON.parse(r.body) as { status: string; receipt?: { transactionId?: string | null } };
  if (body.status !== 'succeeded' && body.status !== 'already_paid') {
    throw new Error(`unexpected final pay answer: ${r.body}`);
  }
  return { status: body.status, transactionId: body.receipt?.transactionId ?? null };
}

/**
 * An answer a client retries with the same key: no answer at all, 503 (database unavailable), 500
 * (outcome unknown: "retry with the same Idempotency-Key") or 409 (a request with this key, or a
 * payment of this session, is still in progress).
 */
export function isRetryable(r: PayResult): boolean {
  return r.kind === 'no_answer' || r.status === 503 || r.status === 500 || r.status === 409;
}

/** One shopper's payment: a session and the one Idempotency-Key it is paid with. */
export interface Payment {
  token: string;
  key: string;
  /** The shopper's address. */
  ip: string;
  /** Each request made and its answer, in order (REL-9's history). */
  history: PayResult[];
  /** Set once a 200 succeeded/already_paid came back. */
  final: { status: string; transactionId: string | null } | null;
  /** Whether any request of this payment went without an answer or with a retryable error. */
  inDoubt: boolean;
}

/**
 * Clients paying sessions on a set of instances. Each client loops: create a session, pay it; an
 * answer that says "retry" or no answer at all is retried at once with the same key, like a real
 * client, on the next live instance; a payment still unresolved after that is handed to the retrier
 * (`settle`) and the client moves on, so the stream of new payments stays steady across a kill.
 */
export class Traffic {
  readonly payments: Payment[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private seq = 0;
  /** Which instances clients may use now (a killed one is removed, a restarted one added back). */
  targets: string[];
  readonly errors: string[] = [];

  constructor(
    targets: string[],
    private readonly merchant: Merchant,
    private readonly clients: number,
  ) {
    this.targets = [...targets];
  }

  start(): void {
    this.running = true;
    this.loops = Array.from({ length: this.clients }, (_, i) => this.loop(i));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private pick(i: number): string {
    return this.targets[i % this.targets.length]!;
  }

  private async loop(client: number): Promise<void> {
    let turn = client;
    while (this.running) {
      const base = this.pick(turn++);
      let token: string;
      const ip = randomIp();
      try {
        token = await createSession(base, this.merchant, `crash-${client}-${this.seq++}`, ip);
      } catch (err) {
        // The instance is down (or the database is): nothing was created that the client knows of.
        if (err instanceof HttpError && err.status !== 503) this.errors.push(`create: ${err.message}`);
        await sleep(100);
        continue;
      }
      const payment: Payment = {
        token,
        key: crypto.randomUUID(),
        ip,
        history: [],
        final: null,
        inDoubt: false,
      };
      this.payments.push(payment);
      // The first request, and at most one immediate retry with the same key.
      for (let attempt = 0; attempt < 2 && !payment.final; attempt++) {
        const r = await this.send(payment, this.pick(turn + attempt));
        if (!isRetryable(r)) break;
        await sleep(50);
      }
    }
  }

  /** Pay requests sent to each instance and not yet answered. */
  private readonly inFlight = new Map<string, number>();

  /**
   * Resolves once a pay request to `base` is on its way (true), or after `timeoutMs` (false): a kill
   * right after it cuts a payment mid-flight, so the test proves something whatever the timing.
   */
  async payInFlight(base: string, timeoutMs = 10_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while ((this.inFlight.get(base) ?? 0) === 0) {
      if (Date.now() > deadline) return false;
      await sleep(1);
    }
    return true;
  }

  private async send(payment: Payment, base: string): Promise<PayResult> {
    this.inFlight.set(base, (this.inFlight.get(base) ?? 0) + 1);
    let r: PayResult;
    try {
      r = await payRequest(base, payment.token, payment.key, payment.ip);
    } finally {
      this.inFlight.set(base, this.inFlight.get(base)! - 1);
    }
    payment.history.push(r);
    if (isRetryable(r)) payment.inDoubt = true;
    else if (r.kind === 'answer' && r.status !== 200) {
      this.errors.push(`pay ${payment.token}: unexpected ${r.status} ${r.body.slice(0, 200)}`);
    }
    const f = finalOf(r);
    if (f) {
      if (payment.final && payment.final.transactionId !== f.transactionId) {
        this.errors.push(`pay ${payment.token}: replay changed the transaction id`);
      }
      payment.final ??= f;
    }
    return r;
  }

  /**
   * Retries every unresolved payment (of `payments`, default all) with its own key until each has a
   * final answer or `deadline` passes; returns those still unresolved.
   */
  async settle(deadline: number, payments: Payment[] = this.payments): Promise<Payment[]> {
    let open = payments.filter((p) => !p.final);
    let round = 0;
    while (open.length > 0 && Date.now() < deadline) {
      await Promise.all(open.map((p, i) => this.send(p, this.pick(round + i))));
      open = open.filter((p) => !p.final);
      round++;
      // Backing off keeps each session well under its pay limit (20 per 15 minutes).
      if (open.length > 0) await sleep(Math.min(2500, 700 * round));
    }
    return open;
  }

  /**
   * Issue 19 §5, measured from the client's side: right after an instance is healthy again, the
   * payments the kill left in doubt are retried with their own keys; resolves with how many were
   * still open then and how long after `healthyAt` the last of them had its final answer (0 when
   * none was open), or throws when one is still open at `deadline`.
   */
  async inDoubtFinal(healthyAt: number, deadline: number): Promise<string> {
    const open = this.payments.filter((p) => p.inDoubt && !p.final);
    if (open.length === 0) return '0 open';
    const left = await this.settle(deadline, open);
    if (left.length > 0) throw new Error(`${left.length} payments in doubt still open`);
    return `${open.length} open, final after ${Date.now() - healthyAt} ms`;
  }
}

// ---- invariants ---------------------------------------------------------------------------------

export interface Findings {
  acknowledged: number;
  inDoubt: number;
  problems: string[];
}

/**
 * Checks, in the database the servers used:
 *  - every payment acknowledged to a client (200 succeeded/already_paid) is there: an approved sale
 *    of that session with that transaction id at the gateway, and the checkout's payment record
 *    naming the same transaction;
 *  - no session has more than one approved transaction, and the processor charged each session at
 *    most once (its ledger: references `cs<session>-a<n>`);
 *  - every payment that went in doubt ended succeeded/already_paid, with the session's transaction;
 *  - a session paid at the gateway is recorded by the checkout.
 */
export async function checkInvariants(
  db: Queryable,
  payments: Payment[],
  /** The checkout's database, when it is not the gateway's (the split wiring may use two). */
  checkoutDb: Queryable = db,
): Promise<Findings> {
  const problems: string[] = [];
  const { rows: doubles } = await db.query<{ session: string; n: string }>(
    `select checkout_session_id as session, count(*) as n from transactions
     where status = 'approved' and checkout_session_id is not null group by 1 having count(*) > 1`,
  );
  for (const d of doubles) problems.push(`session ${d.session}: ${d.n} approved transactions`);
  const { rows: charges } = await db.query<{ session: string; n: string }>(
    `select substring(reference from '^cs([0-9]+)-a') as session, count(*) as n from processor_ledger
     where reference like 'cs%' and (result->>'approved')::boolean group by 1 having count(*) > 1`,
  );
  for (const c of charges) problems.push(`session ${c.session}: charged ${c.n} times at the processor`);

  const tokens = payments.map((p) => p.token);
  const { rows: sessions } = await db.query<{ token: string; status: string; gateway_tx: string | null }>(
    `select s.token, s.status, t.id as gateway_tx
     from checkout_sessions s
     left join transactions t on t.checkout_session_id = s.id and t.status = 'approved'
     where s.token = any($1)`,
    [tokens],
  );
  const { rows: recorded } = await checkoutDb.query<{ token: string; checkout_tx: string | null }>(
    'select session_token as token, transaction_id as checkout_tx from checkout_payments where session_token = any($1)',
    [tokens],
  );
  const checkoutTx = new Map(recorded.map((r) => [r.token, r.checkout_tx]));
  const rows = sessions.map((s) => ({
    ...s,
    recorded: checkoutTx.has(s.token),
    checkout_tx: checkoutTx.get(s.token) ?? null,
  }));
  const byToken = new Map(rows.map((r) => [r.token, r]));
  let acknowledged = 0;
  for (const p of payments) {
    const row = byToken.get(p.token);
    if (p.inDoubt && !p.final) problems.push(`${p.token}: in doubt and never resolved`);
    if (!p.final) continue;
    acknowledged++;
    if (!row?.gateway_tx) {
      problems.push(`${p.token}: acknowledged (${p.final.transactionId}) but no approved transaction`);
      continue;
    }
    if (p.final.transactionId !== row.gateway_tx) {
      problems.push(`${p.token}: acknowledged ${p.final.transactionId}, the gateway has ${row.gateway_tx}`);
    }
    if (!row.recorded) problems.push(`${p.token}: acknowledged but not in checkout_payments`);
    else if (row.checkout_tx !== row.gateway_tx) {
      problems.push(`${p.token}: checkout_payments has ${row.checkout_tx}, the gateway ${row.gateway_tx}`);
    }
  }
  for (const r of rows) {
    if (r.status === 'paid' && !r.gateway_tx)
      problems.push(`${r.token}: paid without an approved transaction`);
    if (r.status === 'paid' && !r.recorded)
      problems.push(`${r.token}: paid at the gateway, not in checkout_payments`);
  }
  return { acknowledged, inDoubt: payments.filter((p) => p.inDoubt).length, problems };
}

/** Fires `count` pays with distinct keys at one session, spread over `targets`, all at once. */
export async function stampede(targets: string[], token: string, count: number): Promise<PayResult[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      payRequest(targets[i % targets.length]!, token, crypto.randomUUID(), randomIp()),
    ),
  );
}
