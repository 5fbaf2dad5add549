/**
 * The decline families of the `error` event (issue 14 §11): each documented ResponseCode of
 * docs/test-cards.md has its family, every family is in the list the event's schema accepts, and an
 * unknown code is `declined`.
 */
import { describe, expect, it } from 'vitest';
import { DECLINE_FAMILIES, declineFamily } from './decline-messages.ts';
import { EmbedError } from './embed-messages.ts';

describe('declineFamily', () => {
  it('names the family of each card and ACH decline code', () => {
    expect(declineFamily('05', 'card')).toBe('do_not_honor');
    expect(declineFamily('51', 'card')).toBe('insufficient_funds');
    expect(declineFamily('54', 'card')).toBe('expired_card');
    expect(declineFamily('N7', 'card')).toBe('incorrect_cvc');
    expect(declineFamily('14', 'card')).toBe('incorrect_number');
    expect(declineFamily('R01', 'ach')).toBe('insufficient_funds');
    expect(declineFamily('R04', 'ach')).toBe('incorrect_account');
    expect(declineFamily('R28', 'ach')).toBe('incorrect_routing');
    expect(declineFamily('R01', 'card')).toBe('declined');
    expect(declineFamily('toString', 'card')).toBe('declined');
    expect(declineFamily('99', 'ach')).toBe('declined');
  });

  it('answers only families the error event’s schema accepts', () => {
    const codes = ['05', '51', '10', '54', '14', 'N7', '65', '57', 'R01', 'R04', 'R28', 'xx'];
    for (const method of ['card', 'ach'] as const) {
      for (const code of codes) {
        const declineCode = declineFamily(code, method);
        expect(DECLINE_FAMILIES).toContain(declineCode);
        expect(
          EmbedError.safeParse({ code: 'declined', message: 'm', currency: 'USD', declineCode }).success,
        ).toBe(true);
      }
    }
    expect(
      EmbedError.safeParse({ code: 'declined', message: 'm', currency: 'USD', declineCode: 'nope' }).success,
    ).toBe(false);
  });
});
