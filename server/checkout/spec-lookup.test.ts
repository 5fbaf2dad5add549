/**
 * The lost-answer lookup's decisions (spec-lookup.ts), over the rows a history answers: charged only
 * on an approved row of the token and amount; "none" only when no row carries the token (bar the
 * checkout's own recorded declines); anything it cannot explain is undecided, never "not charged".
 */
import { describe, expect, it } from 'vitest';
import type { OperationResult } from '../../shared/contract/service.ts';
import { lookUpPayment } from './spec-lookup.ts';
import type { ForeignCall } from './spec-service.ts';

type Row = OperationResult<'GetTransactionHistories'>[number];
const TOKEN = 'cs_token';
const startedAt = new Date('2026-11-24T10:00:00Z');

function row(over: Partial<Row>): Row {
  return {
    TransactionHistoryID: '1',
    MerchantID: '100001',
    TransactionID: '500000001',
    TransactionAmount: '24.99',
    TransactionDate: '2026-11-24T10:00:01',
    CustomValue1: TOKEN,
    ApprovalCode: 'A1B2C3',
    CardNumberLast4Digit: '4242',
    ...over,
  };
}

/** The history as the service would answer it; records what was asked. */
function history(rows: Row[] | Error) {
  const asked: Record<string, unknown>[] = [];
  const call = (async (_name: string, params: Record<string, unknown>) => {
    asked.push(params);
    if (rows instanceof Error) throw rows;
    return rows;
  }) as unknown as ForeignCall;
  return { call, asked };
}

const ask = (rows: Row[] | Error, ours: string[] = []) => {
  const h = history(rows);
  return lookUpPayment(
    h.call,
    { requestId: 'r' },
    {
      merchantId: '100001',
      token: TOKEN,
      amount: '24.99',
      startedAt,
      now: new Date('2026-11-26T10:00:00Z'),
      ours: new Set(ours),
    },
  ).then((found) => ({ found, asked: h.asked }));
};

describe('the lost-answer lookup', () => {
  it('charged: an approved row of the token and amount (its scale aside), with its time read as UTC', async () => {
    const { found, asked } = await ask([row({ TransactionAmount: '24.9900' })]);
    expect(found).toEqual({
      kind: 'charged',
      transactionId: '500000001',
      approvalCode: 'A1B2C3',
      last4: '4242',
      amount: '24.99',
      paidAt: new Date('2026-11-24T10:00:01Z'),
    });
    // The window is anchored at the attempt, not at now: it does not grow while the attempt waits.
    expect(asked).toEqual([
      { startDate: '2026-11-23T20:00:00.000Z', endDate: '2026-11-25T10:00:00.000Z', merchantID: '100001' },
    ]);
  });

  it('none: no row carries the token, or only the declines the checkout recorded itself', async () => {
    expect((await ask([row({ CustomValue1: 'cs_other' })])).found).toEqual({ kind: 'none' });
    expect((await ask([row({ ApprovalCode: undefined, TransactionID: '7' })], ['7'])).found).toEqual({
      kind: 'none',
    });
  });

  it('undecided: a row it cannot explain (no approval code, another amount) or no history at all', async () => {
    expect((await ask([row({ ApprovalCode: undefined })])).found).toEqual({ kind: 'undecided' });
    expect((await ask([row({ TransactionAmount: '20.00' })])).found).toEqual({ kind: 'undecided' });
    expect((await ask(new Error('unreachable'))).found).toEqual({ kind: 'undecided' });
  });

  it('takes the approved row of the amount among others of the token', async () => {
    const { found } = await ask([
      row({ TransactionID: '9', ApprovalCode: undefined }),
      row({ TransactionID: '10', TransactionAmount: '5.00' }),
      row({ TransactionID: '11' }),
    ]);
    expect(found).toMatchObject({ kind: 'charged', transactionId: '11' });
  });
});
