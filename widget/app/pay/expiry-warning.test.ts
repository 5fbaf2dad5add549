import { describe, expect, it } from 'vitest';
import { expiryWarningIn } from './expiry-warning.ts';

const NOW = Date.parse('2026-05-15T12:00:00Z');

describe('expiryWarningIn: two minutes before the end', () => {
  it('waits until two minutes are left', () => {
    expect(expiryWarningIn('2026-05-15T13:00:00Z', NOW)).toBe(58 * 60 * 1000);
  });
  it('warns at once with less than two minutes left', () => {
    expect(expiryWarningIn('2026-05-15T12:01:00Z', NOW)).toBe(0);
  });
  it('has nothing to say once it is over, without an end, or with an unreadable one', () => {
    expect(expiryWarningIn('2026-05-15T12:00:00Z', NOW)).toBeNull();
    expect(expiryWarningIn(null, NOW)).toBeNull();
    expect(expiryWarningIn('soon', NOW)).toBeNull();
  });
  it('leaves ends beyond a timer’s range alone', () => {
    expect(expiryWarningIn('2027-05-15T12:00:00Z', NOW)).toBeNull();
  });
});
