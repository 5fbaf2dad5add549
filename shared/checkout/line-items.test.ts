import { describe, expect, it } from 'vitest';
import { lineItemsProblem } from './line-items.ts';

const item = (quantity: number, unitAmount: string, name = 'Socks') => ({ name, quantity, unitAmount });

describe('lineItemsProblem', () => {
  it('accepts items whose total is the amount, in cents', () => {
    expect(lineItemsProblem([item(2, '9.99'), item(1, '5.01')], 2499n)).toBeNull();
    expect(lineItemsProblem([item(3, '0.10'), item(1, '0.00', 'Gift')], 30n)).toBeNull();
    expect(lineItemsProblem([], 100n)).toBeNull();
  });
  it('refuses a total other than the amount (no float rounding: 0.1 × 3 is 0.30)', () => {
    expect(lineItemsProblem([item(3, '0.10')], 31n)?.code).toBe('line_items_total');
    expect(lineItemsProblem([item(1, '24.98')], 2499n)?.code).toBe('line_items_total');
  });
  it('refuses more than 100 items', () => {
    expect(
      lineItemsProblem(
        Array.from({ length: 101 }, () => item(1, '1.00')),
        10100n,
      )?.code,
    ).toBe('too_many');
    expect(
      lineItemsProblem(
        Array.from({ length: 100 }, () => item(1, '1.00')),
        10000n,
      ),
    ).toBeNull();
  });
  it.each([
    [item(0, '1.00')],
    [item(1.5, '1.00')],
    [item(10_001, '1.00')],
    [item(1, '1.001')],
    [item(1, '-1.00')],
    [item(1, 'ten')],
    [item(1, '1.00', ' ')],
    [item(1, '1.00', 'x'.repeat(201))],
  ])('names the item at fault: %j', (bad) => {
    expect(lineItemsProblem([item(1, '1.00'), bad], 200n)).toMatchObject({ code: 'invalid', index: 1 });
  });
});
