/**
 * The gateway scenario, part 4 — 3-D Secure and TestRequest (docs/gateway.md, docs/3ds-sandbox.md):
 * the challenge answered on the sandbox ACS's form, the payment with CAVV/ECI/XID/DS id accepted
 * once; TestRequest validating without recording anything. Through the real SOAP endpoint, on every
 * database target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../shared/contract/service.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { TEST_CARDS } from './processor/simulator.ts';
import {
  call,
  card,
  completeChallenge,
  countRows,
  type GatewayWorld,
  openWorld,
  pay,
  type TestMerchant,
} from '../../test/kit/gateway/gateway-kit.ts';

type Response = OperationResult<'ProcessTransaction'>;
const DAY = 86_400_000;

describe.each(databaseTargets())('gateway scenario: 3-D Secure and TestRequest ($name)', (target) => {
  let w: GatewayWorld;
  const tx = (fields: Record<string, unknown>, m: TestMerchant = w.a): Promise<Response> =>
    call(w.app, 'ProcessTransaction', pay(m, fields), m.as);
  const history = (m: TestMerchant = w.a) =>
    call(
      w.app,
      'GetTransactionHistories',
      {
        startDate: new Date(Date.now() - DAY).toISOString(),
        endDate: new Date(Date.now() + DAY).toISOString(),
        merchantID: m.id,
      },
      m.as,
    );

  beforeAll(async () => {
    w = await openWorld(target);
  });
  afterAll(() => w?.close());

  describe('3-D Secure', () => {
    it('challenge, authenticate, pay with CAVV/ECI/XID/DS id; the same values again are refused', async () => {
      const asked = await tx(card(TEST_CARDS.threeDSecure, '25.00'));
      expect(asked.ResponseCode).toBe('65');
      const result = await completeChallenge(w.app, asked.ResponseMessageDetail!);
      expect(result).toMatchObject({ status: 'authenticated', eci: '05' });
      const values = {
        CAVV: result.cavv,
        ECI: result.eci,
        XID: result.xid,
        DirectoryServerTransactionId: result.dsTransactionId,
      };
      // A changed amount is refused and does not use the result up.
      const other = await tx(card(TEST_CARDS.threeDSecure, '26.00', values));
      expect(other).toMatchObject({
        ResponseCode: '65',
        ResponseMessage: '3-D Secure authentication was not accepted (mismatch).',
      });
      const paid = await tx(card(TEST_CARDS.threeDSecure, '25.00', values));
      expect(paid).toMatchObject({ ResponseCode: '00', ResponseMessage: 'Approved' });
      expect(paid.TransactionID).not.toBe('0');
      const replay = await tx(card(TEST_CARDS.threeDSecure, '25.00', values));
      expect(replay).toMatchObject({
        ResponseCode: '65',
        ResponseMessage: '3-D Secure authentication was not accepted (already used).',
      });
      const status = await w.app.inject({
        url: `${new URL(asked.ResponseMessageDetail!).pathname}/result.json`,
      });
      expect(status.json().status).toBe('used');
    });

    it('a failed challenge issues no values and the payment stays refused', async () => {
      const asked = await tx(card(TEST_CARDS.threeDSecure, '25.00'));
      const result = await completeChallenge(w.app, asked.ResponseMessageDetail!, 'fail');
      expect(result).toEqual({ status: 'failed', cavv: null, eci: null, xid: null, dsTransactionId: null });
      const forged = await tx(
        card(TEST_CARDS.threeDSecure, '25.00', {
          CAVV: 'AAAA',
          ECI: '05',
          XID: 'x',
          DirectoryServerTransactionId: 'y',
        }),
      );
      expect(forged).toMatchObject({
        ResponseCode: '65',
        ResponseMessage: '3-D Secure authentication was not accepted (unknown).',
      });
    });
  });

  describe('TestRequest', () => {
    it("validates and answers '00' without recording anything or moving money", async () => {
      const count = () =>
        countRows(w.db, 'select count(*) as n from transactions where merchant_id = $1', [w.a.id]);
      const before = await count();
      const seen = (await history()).length;
      const cardsBefore = await countRows(w.db, 'select count(*) as n from cards');
      const ok = await tx(card(TEST_CARDS.visa, '10.00', { TestRequest: true, CreateToken: true }));
      expect(ok).toMatchObject({
        TransactionID: '0',
        ResponseCode: '00',
        ResponseMessage: 'Test request accepted: nothing was recorded and no money moved.',
      });
      expect(ok.Token).toBeUndefined();
      expect(await tx(card(TEST_CARDS.declined, '10.00', { TestRequest: true }))).toMatchObject({
        ResponseCode: '00',
      });
      expect(await tx(card('4242424242424241', '10.00', { TestRequest: true }))).toMatchObject({
        ResponseCode: '14',
      });
      expect(
        await tx(card(TEST_CARDS.visa, '10.00', { TestRequest: true, ExpirationDate: '01/20' })),
      ).toMatchObject({ ResponseCode: '54' });
      expect(await tx(card(TEST_CARDS.visa, '0', { TestRequest: true }))).toMatchObject({
        ResponseCode: '13',
      });
      expect(await tx({ TestRequest: true, TransactionType: 'payout' })).toMatchObject({
        ResponseCode: '12',
      });
      expect(await count()).toBe(before);
      expect((await history()).length).toBe(seen);
      // CreateToken on a TestRequest stores no card and makes no token.
      expect(
        await countRows(w.db, 'select count(*) as n from card_tokens where merchant_id = $1', [w.a.id]),
      ).toBe(0);
      expect(await countRows(w.db, 'select count(*) as n from cards')).toBe(cardsBefore);
    });
  });
});
