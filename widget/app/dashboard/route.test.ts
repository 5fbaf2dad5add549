import { describe, expect, it } from 'vitest';
import { filterQuery } from './api.ts';
import { parseRoute } from './route.ts';

describe("the dashboard's addresses", () => {
  it('name each page; Overview at /dashboard itself', () => {
    expect(parseRoute('/dashboard', '')).toEqual({ page: 'overview' });
    expect(parseRoute('/dashboard/', '')).toEqual({ page: 'overview' });
    for (const page of [
      'sign-in',
      'forgot-password',
      'second-factor',
      'payment-links',
      'settlement',
      'team',
      'invite',
    ] as const) {
      expect(parseRoute(`/dashboard/${page}`, '')).toEqual({ page });
    }
  });

  it("carry the payments' filters in the query, and a payment's id in the path", () => {
    const route = parseRoute('/dashboard/payments', '?state=Refunded&q=ORD-1');
    expect(route.page).toBe('payments');
    expect(route.page === 'payments' && route.query.get('q')).toBe('ORD-1');
    expect(parseRoute('/dashboard/payments/500000123', '')).toEqual({ page: 'payment', id: '500000123' });
    const audit = parseRoute('/dashboard/audit-log', '?action=operation.&outcome=Failure');
    expect(audit.page === 'audit-log' && audit.query.get('action')).toBe('operation.');
  });

  it('are not found for anything else', () => {
    expect(parseRoute('/dashboard/nothing', '')).toEqual({ page: 'not-found' });
    expect(parseRoute('/dashboard/payments/1/refund', '')).toEqual({ page: 'not-found' });
    // A malformed escape in the address is no payment, not a page that fails to render.
    expect(parseRoute('/dashboard/payments/%E0', '')).toEqual({ page: 'not-found' });
  });
});

describe("the list's filters in a query", () => {
  it('leave empty filters out, so the list, its CSV and its address agree', () => {
    expect(filterQuery({ state: '', method: '', from: '', to: '', q: '' })).toBe('');
    expect(
      filterQuery({ state: 'Declined', method: 'Card', from: '2026-11-01', to: '2026-11-30', q: '' }),
    ).toBe('?state=Declined&method=Card&from=2026-11-01&to=2026-11-30');
    expect(filterQuery({ q: 'ORD 1&2' }, '500000001')).toBe('?q=ORD+1%262&after=500000001');
  });
});
