/**
 * The gateway scenario, part 2 — what happens after a payment (docs/gateway.md): recurring
 * schedules and their runner, settlement in batches, and the transaction history with its
 * SettlementStatus values. Through the real SOAP endpoint, on every database target.
 * (3-D Secure and TestRequest: gateway-scenario-3ds.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../shared/contract/service.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { runDueSchedules } from './payments/recurring-runner.ts';
import { nextDate } from './payments/recurring-schedule.ts';
import { TEST_CARDS } from './processor/simulator.ts';
import {
  call,
  card,
  type GatewayWorld,
  openWorld,
  pay,
  rawCall,
  type TestMerchant,
} from '../../test/kit/gateway/gateway-kit.ts';

type Response = OperationResult<'ProcessTransaction'>;
const DAY = 86_400_000;
/** An offset-less dateTime from the gateway (ASMX "Unspecified") is UTC. */
const utc = (s: string) => new Date(/Z|[+-]\d\d:\d\d$/.test(s) ? s : `${s}Z`);

describe.each(databaseTargets())('gateway scenario: lifecycle ($name)', (target) => {
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
  const schedules = () => call(w.app, 'GetRecurringCustomerDetail', { merchantID: w.a.id }, w.a.as);

  beforeAll(async () => {
    w = await openWorld(target);
  });
  afterAll(() => w?.close());

  describe('recurring billing', () => {
    let first: Response;

    it('IsRecurring on an approved sale creates a schedule on a new token', async () => {
      const before = Date.now();
      first = await tx(
        card(TEST_CARDS.visa, '30.00', {
          IsRecurring: true,
          RecurringAmount: '9.99',
          RecurringFrequency: 'Monthly',
          FirstName: 'Jo',
          LastName: 'Doe',
          Email: 'jo@shop.example',
        }),
      );
      expect(first).toMatchObject({ ResponseCode: '00', RecurringAmount: '9.99' });
      expect(first.Token).toMatch(/^tok_/);
      const next = new Date(first.RecurringStartDate!);
      expect(Math.abs(next.getTime() - nextDate(new Date(before), 'monthly').getTime())).toBeLessThan(60_000);
      expect(first.RecurringResponse).toMatch(
        /^Schedule \d+ created: monthly, next charge \d{4}-\d\d-\d\d\.$/,
      );
      const listed = await schedules();
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({
        MerchantID: w.a.id,
        Amount: '9.99',
        TimeFrame: 'monthly',
        FirstName: 'Jo',
        LastName: 'Doe',
        CardEmail: 'jo@shop.example',
        CardNumberLast4Digit: '4242',
      });
      expect(utc(listed[0]!.NextProcessDate).getTime()).toBe(next.getTime());
      // Another merchant sees none of it.
      expect(await call(w.app, 'GetRecurringCustomerDetail', { merchantID: w.b.id }, w.b.as)).toEqual([]);
    });

    it('the runner charges a due schedule once, and moves its next date on', async () => {
      const due = utc((await schedules())[0]!.NextProcessDate);
      const later = new Date(due.getTime() + 60_000);
      expect(await runDueSchedules(w.t.gateway.deps, { now: new Date(due.getTime() - 60_000) })).toEqual({
        charged: 0,
        declined: 0,
      });
      expect(await runDueSchedules(w.t.gateway.deps, { now: later })).toEqual({ charged: 1, declined: 0 });
      expect(await runDueSchedules(w.t.gateway.deps, { now: later })).toEqual({ charged: 0, declined: 0 });
      const [moved] = await schedules();
      expect(utc(moved!.NextProcessDate).getTime()).toBe(nextDate(due, 'monthly').getTime());
      const charged = (await history()).filter((h) => h.Source === 'recurring');
      expect(charged).toHaveLength(1);
      expect(charged[0]).toMatchObject({
        TransactionAmount: '9.99',
        SettlementStatus: 'Pending',
        CardNumberLast4Digit: '4242',
      });
    });

    it.each([
      ['an unknown frequency', { RecurringFrequency: 'fortnightly' }, '12'],
      ['no RecurringAmount', { RecurringAmount: '0' }, '13'],
      [
        'an end before the first charge',
        { RecurringEndDate: new Date(Date.now() + DAY).toISOString() },
        '12',
      ],
    ])('refuses %s before any money moves (%s)', async (_name, fields, code) => {
      const r = await tx(
        card(TEST_CARDS.visa, '5.00', {
          IsRecurring: true,
          RecurringAmount: '5.00',
          RecurringFrequency: 'weekly',
          ...fields,
        }),
      );
      expect(r).toMatchObject({ TransactionID: '0', ResponseCode: code });
    });

    it('a declined sale creates no schedule', async () => {
      const r = await tx(
        card(TEST_CARDS.declined, '5.00', {
          IsRecurring: true,
          RecurringAmount: '5.00',
          RecurringFrequency: 'weekly',
        }),
      );
      expect(r.ResponseCode).toBe('05');
      expect(r.RecurringResponse).toBeUndefined();
      expect(await schedules()).toHaveLength(1);
    });
  });

  describe('settlement and history', () => {
    const ids: Record<string, string> = {};

    it('settles all pending money movements in one batch; a second settle has nothing to settle', async () => {
      ids.sale = (await tx(card(TEST_CARDS.visa, '20.00'))).TransactionID;
      ids.voided = (await tx(card(TEST_CARDS.visa, '7.00'))).TransactionID;
      ids.void = (await tx({ TransactionType: 'void', OriginalTransactionID: ids.voided })).TransactionID;
      ids.refunded = (await tx(card(TEST_CARDS.visa, '6.00'))).TransactionID;
      ids.fullRefund = (
        await tx({ TransactionType: 'refund', OriginalTransactionID: ids.refunded })
      ).TransactionID;
      ids.partRefunded = (await tx(card(TEST_CARDS.visa, '10.00'))).TransactionID;
      ids.refund = (
        await tx({ TransactionType: 'refund', OriginalTransactionID: ids.partRefunded, Amount: '4.00' })
      ).TransactionID;
      ids.declined = (await tx(card(TEST_CARDS.insufficientFunds, '8.00'))).TransactionID;
      ids.auth = (await tx(card(TEST_CARDS.visa, '12.00', { TransactionType: 'auth' }))).TransactionID;
      ids.capture = (
        await tx({ TransactionType: 'capture', OriginalTransactionID: ids.auth, Amount: '12.00' })
      ).TransactionID;
      const before = await history();
      const was = (id: string | undefined) => before.find((r) => r.TransactionID === id)?.SettlementStatus;
      expect([ids.sale, ids.partRefunded, ids.refund, ids.auth, ids.capture].map(was)).toEqual(
        Array(5).fill('Pending'),
      );
      expect([was(ids.voided), was(ids.void), was(ids.refunded), was(ids.declined)]).toEqual([
        'Voided',
        'Voided',
        'Refunded',
        'Declined',
      ]);

      const settled = await call(w.app, 'SettleTransaction', { request: { MerchantID: w.a.id } }, w.a.as);
      expect(settled).toMatchObject({ MerchantID: w.a.id, ResponseCode: '00', BatchNumber: '1' });
      expect(settled.SettlementID).toMatch(/^[1-9]\d*$/);
      expect(settled.ResponseMessage).toMatch(/^Settled \d+ transactions, net \d+\.\d\d\.$/);
      const again = await call(
        w.app,
        'SettleTransaction',
        { request: { MerchantID: w.a.id, TransactionID: '' } },
        w.a.as,
      );
      expect(again).toEqual({
        MerchantID: w.a.id,
        ResponseCode: '25',
        ResponseMessage: 'There is nothing to settle.',
        SettlementID: '0',
      });
      expect(before.length).toBe((await history()).length);
    });

    it('GetTransactionHistories shows each transaction with its SettlementStatus, newest first', async () => {
      const rows = await history();
      const status = (id: string | undefined) => rows.find((r) => r.TransactionID === id)?.SettlementStatus;
      expect(status(ids.sale)).toBe('Settled');
      expect(status(ids.voided)).toBe('Voided');
      expect(status(ids.void)).toBe('Voided');
      expect(status(ids.partRefunded)).toBe('Settled');
      expect(status(ids.refund)).toBe('Settled');
      expect(status(ids.declined)).toBe('Declined');
      expect(status(ids.refunded)).toBe('Refunded');
      // An auth is not itself settled: its captures are (it stays Pending).
      expect(status(ids.auth)).toBe('Pending');
      expect(status(ids.capture)).toBe('Settled');
      const dates = rows.map((r) => utc(r.TransactionDate!).getTime());
      expect([...dates].sort((x, y) => y - x)).toEqual(dates);
      const sale = rows.find((r) => r.TransactionID === ids.sale)!;
      expect(sale).toMatchObject({
        MerchantID: w.a.id,
        TransactionAmount: '20.00',
        CardNumberLast4Digit: '4242',
      });
      expect(sale.TransactionDate).not.toMatch(/Z|[+-]\d\d:\d\d$/);
      expect(rows.find((r) => r.TransactionID === ids.declined)?.TransactionAmount).toBe('8.00');
    });

    it('a settled sale cannot be voided (refund it), a settled one is not settled twice', async () => {
      expect(await tx({ TransactionType: 'void', OriginalTransactionID: ids.sale })).toMatchObject({
        ResponseCode: '12',
        ResponseMessage: 'The transaction is settled; refund it instead.',
      });
      const one = await call(
        w.app,
        'SettleTransaction',
        { request: { MerchantID: w.a.id, TransactionID: ids.sale } },
        w.a.as,
      );
      expect(one.ResponseCode).toBe('25');
      const fresh = (await tx(card(TEST_CARDS.visa, '3.00'))).TransactionID;
      const single = await call(
        w.app,
        'SettleTransaction',
        { request: { MerchantID: w.a.id, TransactionID: fresh } },
        w.a.as,
      );
      expect(single).toMatchObject({
        ResponseCode: '00',
        BatchNumber: '2',
        ResponseMessage: 'Settled 1 transaction, net 3.00.',
      });
    });

    // A sale refunded in full before settlement settles together with its refunds (it once did not,
    // and the batch paid out the refund alone).
    it('a fully refunded sale settles with its refunds: the batch nets to zero', async () => {
      const sale = (await tx(card(TEST_CARDS.visa, '6.00'))).TransactionID;
      await tx({ TransactionType: 'refund', OriginalTransactionID: sale });
      const settled = await call(w.app, 'SettleTransaction', { request: { MerchantID: w.a.id } }, w.a.as);
      expect(settled.ResponseMessage).toMatch(/, net 0\.00\.$/);
    });

    it('bounds the history: at most 366 days, end not before start', async () => {
      const ask = (startDate: string, endDate: string) =>
        rawCall(w.app, 'GetTransactionHistories', { startDate, endDate, merchantID: w.a.id }, w.a.as);
      expect(await ask('2024-01-01T00:00:00', '2025-01-01T00:00:00')).toMatchObject({ status: 200 });
      expect(await ask('2024-01-01', '2025-01-02')).toMatchObject({
        errorCode: 'invalid_request',
        message: 'The date range may span at most 366 days.',
      });
      expect(await ask('2024-02-01', '2024-01-01')).toMatchObject({
        errorCode: 'invalid_request',
        message: 'endDate is before startDate.',
      });
    });
  });
});
