/**
 * A 3-D Secure challenge is bound to the checkout session it was made for (issue 13 §5): its
 * result pays that session only — not another session of the same merchant, card and amount, nor a
 * merchant's own ProcessTransaction — and the checkout's result route answers for that session
 * only. The gateway checks the binding when it verifies the values; the route when it reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../gateway/processor/simulator.ts';
import { completeChallenge, futureExpiry } from '../../test/kit/gateway/gateway-kit.ts';
import { request, soapCall } from '../../test/kit/gateway/soap-call.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  addMerchant,
  approvedTransactions,
  cardBody,
  type CheckoutWorld,
  createSession,
  openCheckoutWorld,
  pay,
  type WorldMerchant,
} from '../../test/kit/checkout/checkout-world.ts';

interface Challenged {
  token: string;
  challengeUrl: string;
  resultUrl: string;
}

describe.each(databaseTargets())('3-D Secure results are bound to their session ($name)', (target) => {
  let w: CheckoutWorld;
  let m: WorldMerchant;
  let orders = 0;
  beforeAll(async () => {
    w = await openCheckoutWorld(await target.open());
    m = await addMerchant(w.t, w.db, 'Bound Secure Shop', { threeDsEnrolled: true });
  });
  afterAll(() => w?.close());

  const card = () => cardBody(TEST_CARDS.threeDSecure);

  /** A session of `m` (24.99) whose first pay asked for a challenge. */
  async function challenged(): Promise<Challenged> {
    const token = await createSession(w, { orderNumber: `3DS-${(orders += 1)}` }, m);
    const first = (await pay(w.app, token, card())).json();
    expect(first.status).toBe('requires_action');
    return { token, challengeUrl: first.challengeUrl, resultUrl: first.resultUrl };
  }

  const valuesOf = (r: {
    cavv: string | null;
    eci: string | null;
    xid: string | null;
    dsTransactionId: string | null;
  }) => ({
    cavv: r.cavv!,
    eci: r.eci!,
    xid: r.xid!,
    dsTransactionId: r.dsTransactionId!,
  });

  it("another session's result (same merchant, card and amount) is declined there, and still pays its own", async () => {
    const a = await challenged();
    const b = await challenged();
    const result = await completeChallenge(w.app, a.challengeUrl);
    expect(result.status).toBe('authenticated');

    const stolen = (await pay(w.app, b.token, { ...card(), threeDSecure: valuesOf(result) })).json();
    expect(stolen.status).toBe('declined');
    expect(await approvedTransactions(w.db, b.token)).toBe(0);

    // The refusal did not use the result up: the session it was made for pays with it.
    const paid = (await pay(w.app, a.token, { ...card(), threeDSecure: valuesOf(result) })).json();
    expect(paid.status).toBe('succeeded');
    expect(await approvedTransactions(w.db, a.token)).toBe(1);
  });

  it("the result route answers for its own session only: another session's path is 404", async () => {
    const a = await challenged();
    const b = await challenged();
    await completeChallenge(w.app, a.challengeUrl);
    const id = a.challengeUrl.split('/').pop()!;
    const own = await w.app.inject({ method: 'GET', url: a.resultUrl });
    expect(own.statusCode).toBe(200);
    expect(own.json().status).toBe('authenticated');
    const other = await w.app.inject({
      method: 'GET',
      url: `/api/checkout/sessions/${b.token}/three-ds/${id}`,
    });
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain(own.json().cavv);
    // The gateway's result.json, as the split wiring's checkout asks it: the same rule.
    const path = new URL(a.challengeUrl).pathname;
    expect((await w.app.inject({ url: `${path}/result.json?session=${b.token}` })).statusCode).toBe(404);
    expect((await w.app.inject({ url: `${path}/result.json?session=${a.token}` })).json().status).toBe(
      'authenticated',
    );
  });

  it("a session's result does not pay a merchant's own ProcessTransaction, nor the other way round", async () => {
    const as = { merchantId: m.id, key: m.key };
    const sale = (fields: Record<string, unknown>) =>
      soapCall(
        w.app,
        'ProcessTransaction',
        {
          request: request({
            MerchantID: m.id,
            CardNumber: TEST_CARDS.threeDSecure,
            ExpirationDate: futureExpiry(),
            Amount: '24.99',
            ...fields,
          }),
        },
        as,
      );
    const soapValues = (r: ReturnType<typeof valuesOf>) => ({
      CAVV: r.cavv,
      ECI: r.eci,
      XID: r.xid,
      DirectoryServerTransactionId: r.dsTransactionId,
    });

    // A session's result, sent by the merchant outside the session.
    const a = await challenged();
    const fromSession = valuesOf(await completeChallenge(w.app, a.challengeUrl));
    const outside = (await sale(soapValues(fromSession))).result as {
      ResponseCode: string;
      ResponseMessage: string;
    };
    expect(outside).toMatchObject({
      ResponseCode: '65',
      ResponseMessage: '3-D Secure authentication was not accepted (mismatch).',
    });

    // A merchant's own challenge, its result sent with a session's pay.
    const asked = (await sale({})).result as { ResponseCode: string; ResponseMessageDetail: string };
    expect(asked.ResponseCode).toBe('65');
    const own = valuesOf(await completeChallenge(w.app, asked.ResponseMessageDetail));
    const b = await challenged();
    expect((await pay(w.app, b.token, { ...card(), threeDSecure: own })).json().status).toBe('declined');
    expect(await approvedTransactions(w.db, b.token)).toBe(0);
    // Each still pays what it was made for.
    expect(((await sale(soapValues(own))).result as { ResponseCode: string }).ResponseCode).toBe('00');
    expect((await pay(w.app, a.token, { ...card(), threeDSecure: fromSession })).json().status).toBe(
      'succeeded',
    );
  });
});
