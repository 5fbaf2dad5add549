import { describe, expect, test } from 'vitest';
import type { Receipt, WidgetSession } from '../../../shared/checkout/index.ts';
import { loadErrorOf, screenOf } from './screen.ts';

const session = (fields: Partial<WidgetSession>) => ({ status: 'open', ...fields }) as WidgetSession;
const RECEIPT = { status: 'succeeded', amount: '25.00' } as Receipt;
const REASON = 'The payment page has expired.';

describe('screenOf', () => {
  test('an open session is the form, even with a reason (the form is what can be done)', () => {
    expect(screenOf(session({}))).toEqual({ kind: 'form' });
    expect(screenOf(session({ unavailableMessage: REASON }))).toEqual({ kind: 'form' });
  });

  test('an ended session with the Transaction Service’s reason shows the reason, in its own words', () => {
    expect(screenOf(session({ status: 'expired', unavailableMessage: REASON }))).toEqual({
      kind: 'unavailable',
      message: REASON,
      ended: 'expired',
    });
    expect(screenOf(session({ status: 'canceled', unavailableMessage: REASON }))).toEqual({
      kind: 'unavailable',
      message: REASON,
      ended: 'canceled',
    });
  });

  test('without a reason (null, empty or absent) an ended session says its status, as before', () => {
    expect(screenOf(session({ status: 'expired' }))).toEqual({ kind: 'expired' });
    expect(screenOf(session({ status: 'expired', unavailableMessage: null }))).toEqual({ kind: 'expired' });
    expect(screenOf(session({ status: 'expired', unavailableMessage: '' }))).toEqual({ kind: 'expired' });
    expect(screenOf(session({ status: 'canceled' }))).toEqual({ kind: 'canceled' });
  });

  test('a paid session shows its receipt; without one it is shown as closed', () => {
    expect(screenOf(session({ status: 'paid', receipt: RECEIPT, redirectUrl: null }))).toEqual({
      kind: 'paid',
      receipt: RECEIPT,
      redirectUrl: null,
      fresh: false,
    });
    expect(screenOf(session({ status: 'paid' }))).toEqual({ kind: 'expired' });
  });
});

test('loadErrorOf: the loaderror reason of a session that cannot be paid, and only of one', () => {
  expect(loadErrorOf({ kind: 'expired' })).toBe('expired');
  expect(loadErrorOf({ kind: 'canceled' })).toBe('canceled');
  expect(loadErrorOf({ kind: 'unavailable', message: REASON, ended: 'expired' })).toBe('unavailable');
  for (const kind of ['loading', 'form', 'load-failed', 'not-found'] as const) {
    expect(loadErrorOf({ kind })).toBeNull();
  }
});
