/**
 * The gateway's sandbox ACS (DESIGN.md §13): creates 3-D Secure challenges, records the shopper's
 * answer, and checks the CAVV / ECI / XID / DirectoryServerTransactionId a merchant later sends
 * with ProcessTransaction.
 *
 * One result per transaction id (checkout-anchors.md §5.6): a challenge is decided once (completing
 * it again returns the same answer, never a second CAVV) and an authentication is accepted by
 * `verifyAuthentication` once, enforced by a conditional UPDATE so it holds across instances and
 * when calls race. Called inside the caller's transaction, a rollback (say the processor failed)
 * leaves the result unused.
 *
 * The CAVV is an HMAC (SHA-256, truncated to the 20 bytes a CAVV carries) over the challenge's
 * binding — XID, DS transaction id, merchant, card fingerprint, amount, and the checkout session it
 * was made for (issue 13 §5) — under a key derived from
 * the secret the caller passes (the vault owns the keys), so a stored or forged CAVV that does not
 * match the binding is refused even if someone could write to the table.
 */
import crypto from 'node:crypto';
import { fromCents, MAX_CENTS, toCents } from '../../../shared/money.ts';
import type { Queryable } from '../../db/database.ts';

/** ECI for a fully authenticated payment (Visa's '05'; the sandbox does not vary it by brand). */
export const ECI_AUTHENTICATED = '05';
export const DEFAULT_TTL_MINUTES = 10;
/** Challenge ids: 18 random bytes, base64url (144 bits). */
const ID_PATTERN = /^[A-Za-z0-9_-]{24}$/;
const MERCHANT_ID = /^\d{1,19}$/;

export type ChallengeState = 'pending' | 'authenticated' | 'failed' | 'used' | 'expired';
export type ChallengeOutcome = 'authenticate' | 'fail';

export interface ThreeDsResult {
  cavv: string;
  eci: string;
  xid: string;
  dsTransactionId: string;
}

export interface CreatedChallenge {
  id: string;
  xid: string;
  dsTransactionId: string;
  /** Path of the challenge page, e.g. `/3ds/challenge/<id>`; the caller makes it absolute. */
  url: string;
  expiresAt: Date;
}

export interface ChallengeStatus {
  id: string;
  /** `expired` when still pending past `expiresAt`; a decided challenge keeps its decision. */
  status: ChallengeState;
  merchantName?: string;
  /** The merchant's registered origins: the checkout iframe showing the challenge may sit in them. */
  merchantOrigins: string[];
  /** The token of the checkout session the challenge was made for; null for a merchant's own sale. */
  checkoutSessionToken: string | null;
  /** The checkout session's locale, for the page's language (server/i18n); null without one. */
  locale: string | null;
  /** Decimal string, "12.34" (DESIGN.md §3). */
  amount: string;
  /** ISO 4217 code of the amount: the checkout session's currency; USD for a merchant's own sale. */
  currency: string;
  expiresAt: Date;
  /** Only once authenticated (also after it was used). */
  result?: ThreeDsResult;
}

export type CompleteResult =
  { ok: true; challenge: ChallengeStatus } | { ok: false; reason: 'unknown' | 'expired' };

export type VerifyFailure = 'unknown' | 'not_authenticated' | 'mismatch' | 'expired' | 'already_used';
export type VerifyResult = { ok: true } | { ok: false; reason: VerifyFailure };

export interface ThreeDsServiceOptions {
  /** Key material for the CAVV (≥ 32 bytes); a dedicated key is derived from it with HKDF. */
  secret: Buffer;
  now?: () => Date;
}

interface ChallengeRow {
  id: string;
  merchant_id: string;
  checkout_session_id: string | null;
  session_token: string | null;
  card_fingerprint: string;
  amount: string;
  status: 'pending' | 'authenticated' | 'failed' | 'used';
  cavv: string | null;
  eci: string | null;
  xid: string;
  ds_transaction_id: string;
  expires_at: Date;
  merchant_name: string | null;
  origins: string[] | null;
  session_locale: string | null;
  session_currency: string | null;
}

const SELECT_CHALLENGE = `
  select c.id, c.merchant_id, c.checkout_session_id::text as checkout_session_id, s.token as session_token,
         c.card_fingerprint, c.amount, c.status, c.cavv, c.eci, c.xid,
         c.ds_transaction_id, c.expires_at, coalesce(nullif(m.business_name, ''), m.name) as merchant_name,
         m.origins, s.locale as session_locale, s.currency as session_currency
    from three_ds_challenges c join merchants m on m.id = c.merchant_id
    left join checkout_sessions s on s.id = c.checkout_session_id`;

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

function canonicalMerchant(id: string): string | undefined {
  return MERCHANT_ID.test(id) ? BigInt(id).toString() : undefined;
}

export class ThreeDsService {
  readonly #key: Buffer;
  readonly #now: () => Date;

  constructor({ secret, now = () => new Date() }: ThreeDsServiceOptions) {
    if (!Buffer.isBuffer(secret) || secret.length < 32) {
      throw new TypeError('ThreeDsService needs a secret of at least 32 bytes.');
    }
    // A key of its own, so the CAVV never shares a key with anything else the vault signs.
    this.#key = Buffer.from(crypto.hkdfSync('sha256', secret, Buffer.alloc(0), 'payframe/3ds-cavv/v1', 32));
    this.#now = now;
  }

  async createChallenge(
    q: Queryable,
    input: {
      merchantId: string;
      cardFingerprint: string;
      amountCents: bigint;
      /** The checkout session being paid (its id), or null for a merchant's own ProcessTransaction. */
      checkoutSessionId: string | null;
      ttlMinutes?: number;
    },
  ): Promise<CreatedChallenge> {
    const merchantId = canonicalMerchant(input.merchantId);
    if (!merchantId) throw new TypeError('merchantId must be a digit string.');
    if (!input.cardFingerprint) throw new TypeError('cardFingerprint is required.');
    const sessionId = input.checkoutSessionId === null ? null : canonicalMerchant(input.checkoutSessionId);
    if (sessionId === undefined) throw new TypeError('checkoutSessionId must be a digit string or null.');
    if (input.amountCents <= 0n || input.amountCents > MAX_CENTS)
      throw new RangeError('amountCents is out of range.');
    const ttl = input.ttlMinutes ?? DEFAULT_TTL_MINUTES;
    if (!Number.isFinite(ttl) || ttl <= 0) throw new RangeError('ttlMinutes must be positive.');

    const id = crypto.randomBytes(18).toString('base64url');
    const xid = crypto.randomBytes(20).toString('base64'); // as in 3-D Secure 1
    const dsTransactionId = crypto.randomUUID();
    const now = this.#now();
    const expiresAt = new Date(now.getTime() + ttl * 60_000);
    await q.query(
      `insert into three_ds_challenges
         (id, merchant_id, card_fingerprint, amount, status, xid, ds_transaction_id, created_at, expires_at,
          checkout_session_id)
       values ($1, $2, $3, $4, 'pending', $5, $6, $7::timestamptz, $8::timestamptz, $9)`,
      [
        id,
        merchantId,
        input.cardFingerprint,
        fromCents(input.amountCents),
        xid,
        dsTransactionId,
        now.toISOString(),
        expiresAt.toISOString(),
        sessionId,
      ],
    );
    return { id, xid, dsTransactionId, url: `/3ds/challenge/${id}`, expiresAt };
  }

  async challengeStatus(q: Queryable, id: string): Promise<ChallengeStatus | null> {
    const row = await this.#load(q, id);
    return row ? this.#toStatus(row) : null;
  }

  /** Records the shopper's answer: only from `pending` and before expiry; once decided, idempotent. */
  async completeChallenge(q: Queryable, id: string, outcome: ChallengeOutcome): Promise<CompleteResult> {
    const row = await this.#load(q, id);
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.status === 'pending') {
      const authenticated = outcome === 'authenticate';
      // Deterministic, so a racing second completion computes the same value; the WHERE lets one win.
      await q.query(
        `update three_ds_challenges set status = $2, cavv = $3, eci = $4
          where id = $1 and status = 'pending' and expires_at > $5::timestamptz`,
        [
          id,
          authenticated ? 'authenticated' : 'failed',
          authenticated ? this.#cavv(row) : null,
          authenticated ? ECI_AUTHENTICATED : null,
          this.#now().toISOString(),
        ],
      );
    }
    const decided = await this.#load(q, id);
    if (!decided) return { ok: false, reason: 'unknown' };
    const challenge = this.#toStatus(decided);
    if (challenge.status === 'pending' || challenge.status === 'expired')
      return { ok: false, reason: 'expired' };
    return { ok: true, challenge };
  }

  /**
   * Checks the values a merchant sends with ProcessTransaction and consumes them: accepted once.
   * Binding (merchant, card, amount, and the checkout session — none for a merchant's own sale) is
   * checked before the state, so a caller learns nothing about another merchant's or session's
   * challenge: a result from one session never pays another, nor a sale outside any session.
   */
  async verifyAuthentication(
    q: Queryable,
    values: { cavv: string; eci: string; xid: string; dsTransactionId: string },
    expected: {
      merchantId: string;
      cardFingerprint: string;
      amountCents: bigint;
      checkoutSessionId: string | null;
    },
  ): Promise<VerifyResult> {
    const { rows } = await q.query<ChallengeRow>(
      `${SELECT_CHALLENGE} where c.xid = $1 and c.ds_transaction_id = $2`,
      [
        String(values.xid ?? '').trim(),
        String(values.dsTransactionId ?? '')
          .trim()
          .toLowerCase(),
      ],
    );
    const row = rows[0];
    if (!row) return { ok: false, reason: 'unknown' };
    const bound =
      canonicalMerchant(expected.merchantId) === canonicalMerchant(row.merchant_id) &&
      sameString(expected.cardFingerprint, row.card_fingerprint) &&
      expected.amountCents === toCents(row.amount) &&
      (expected.checkoutSessionId === null
        ? row.checkout_session_id === null
        : row.checkout_session_id !== null &&
          canonicalMerchant(expected.checkoutSessionId) === canonicalMerchant(row.checkout_session_id));
    if (!bound) return { ok: false, reason: 'mismatch' };
    if (row.status === 'pending' || row.status === 'failed')
      return { ok: false, reason: 'not_authenticated' };
    const eci = String(values.eci ?? '')
      .trim()
      .padStart(2, '0');
    if (!sameString(String(values.cavv ?? '').trim(), this.#cavv(row)) || !sameString(eci, row.eci ?? '')) {
      return { ok: false, reason: 'mismatch' };
    }
    if (row.status === 'used') return { ok: false, reason: 'already_used' };
    const consumed = await q.query<{ id: string }>(
      `update three_ds_challenges set status = 'used'
        where id = $1 and status = 'authenticated' and expires_at > $2::timestamptz
        returning id`,
      [row.id, this.#now().toISOString()],
    );
    if (consumed.rows.length === 1) return { ok: true };
    // Lost a race to another verify, or the result ran out: say which.
    const after = await this.#load(q, row.id);
    return { ok: false, reason: after?.status === 'used' ? 'already_used' : 'expired' };
  }

  #cavv(
    row: Pick<
      ChallengeRow,
      'xid' | 'ds_transaction_id' | 'merchant_id' | 'card_fingerprint' | 'amount' | 'checkout_session_id'
    >,
  ) {
    const binding = JSON.stringify([
      row.xid,
      row.ds_transaction_id,
      canonicalMerchant(row.merchant_id) ?? row.merchant_id,
      row.card_fingerprint,
      toCents(row.amount).toString(),
      // Only for a session's challenge: a merchant's own keeps the CAVV it had before sessions counted.
      ...(row.checkout_session_id === null ? [] : [`session:${row.checkout_session_id}`]),
    ]);
    return crypto.createHmac('sha256', this.#key).update(binding).digest().subarray(0, 20).toString('base64');
  }

  async #load(q: Queryable, id: string): Promise<ChallengeRow | undefined> {
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) return undefined;
    const { rows } = await q.query<ChallengeRow>(`${SELECT_CHALLENGE} where c.id = $1`, [id]);
    return rows[0];
  }

  #toStatus(row: ChallengeRow): ChallengeStatus {
    const expired = row.status === 'pending' && new Date(row.expires_at).getTime() <= this.#now().getTime();
    const status: ChallengeStatus = {
      id: row.id,
      status: expired ? 'expired' : row.status,
      amount: fromCents(toCents(row.amount)),
      // The gateway's own sales (ProcessTransaction) are US dollars; a session carries its currency.
      currency: row.session_currency ?? 'USD',
      expiresAt: new Date(row.expires_at),
      merchantOrigins: row.origins ?? [],
      checkoutSessionToken: row.session_token,
      locale: row.session_locale,
    };
    if (row.merchant_name) status.merchantName = row.merchant_name;
    if ((row.status === 'authenticated' || row.status === 'used') && row.cavv && row.eci) {
      status.result = { cavv: row.cavv, eci: row.eci, xid: row.xid, dsTransactionId: row.ds_transaction_id };
    }
    return status;
  }
}
