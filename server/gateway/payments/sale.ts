/**
 * Sale and auth (ProcessTransaction, TransactionType `sale` / `auth`): the money source is
 * resolved and the card vaulted, 3-D Secure values are verified when given, and every processor
 * outcome is recorded. A sale of a checkout session (HostedPaymentToken) goes through
 * session-sale.ts, which claims the session first; its typed outcome is told here in the spec's
 * terms (ISO 8583 codes and messages for people).
 */
import crypto from 'node:crypto';
import type { GatewayDeps } from '../gateway-call.ts';
import { type Request, RequestProblem, resolveSource } from './payment-source.ts';
import {
  amountOf,
  authorize,
  checkMethod,
  challengeOrDecline,
  failedThreeDs,
  type SaleOutcome,
  threeDsAuthenticated,
  transactionOf,
} from './sale-steps.ts';
import { paySessionSale } from './session-sale.ts';
import { queueRequestedReceipts } from './soap-receipts.ts';
import { insertTransaction, type Kind } from './transaction-rows.ts';

export type { SaleOutcome } from './sale-steps.ts';

/** A sale of a checkout session, in the spec's terms: a closed session is a RequestProblem. */
async function sessionSale(
  deps: GatewayDeps,
  kind: Extract<Kind, 'sale' | 'auth'>,
  r: Request,
  token: string,
  actingMerchant: string | null,
): Promise<SaleOutcome> {
  const out = await paySessionSale(deps, kind, r, token, actingMerchant);
  switch (out.kind) {
    case 'not_found':
      throw new RequestProblem('12', 'HostedPaymentToken does not name a checkout session of this merchant.');
    case 'in_progress':
      throw new RequestProblem('09', 'A payment for this checkout session is in progress.');
    case 'unavailable': {
      const s = out.record.session;
      if (s.status === 'paid')
        throw new RequestProblem(
          '94',
          `This checkout session has already been paid (transaction ${s.transactionId}).`,
        );
      throw new RequestProblem('12', `This checkout session is ${s.status}.`);
    }
    case 'refused':
      throw out.problem;
    case 'done':
      return out.sale;
  }
}

export async function runSale(
  deps: GatewayDeps,
  merchantId: string,
  kind: Extract<Kind, 'sale' | 'auth'>,
  r: Request,
  sessionToken: string | null,
  actingMerchant: string | null,
): Promise<SaleOutcome> {
  if (sessionToken) return sessionSale(deps, kind, r, sessionToken, actingMerchant);
  const cents = amountOf(r, null);
  const merchant = await deps.merchants.get(deps.db, merchantId);
  if (!merchant) throw new RequestProblem('03', 'Unknown merchant.');
  checkMethod(kind, r, merchant);
  const source = await resolveSource(deps.db, deps, merchantId, r, { allowWallet: false });
  const threeDs = await threeDsAuthenticated(deps.db, deps, merchantId, source, cents, r, null);
  const reference = `tx-${crypto.randomUUID()}`;
  let result = threeDs.failure
    ? failedThreeDs(threeDs.failure)
    : await authorize(deps, source, reference, cents, r, threeDs.authenticated);
  if (result.challengeRequired && source.kind === 'card') {
    const c = await challengeOrDecline(deps, merchant, source, cents, result, null);
    if (c.challengeUrl) return { row: null, source, result: c.result, challengeUrl: c.challengeUrl };
    result = c.result;
  }
  // The receipts the request asks for are queued with the row (soap-receipts.ts).
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await insertTransaction(
      tx,
      transactionOf(merchantId, kind, source, cents, result, r, { reference }),
    );
    await queueRequestedReceipts(tx, r, merchant, inserted, source);
    return inserted;
  });
  return { row, source, result };
}
