import { describe, expect, it } from 'vitest';
import { cardLabel } from './wallet-label.ts';

const card = (over: Partial<Parameters<typeof cardLabel>[0]>) => ({
  tokenGuid: '0f8fad5b-d9cb-469f-a165-70867728950e',
  maskedCardNumber: '•••• 4444',
  cardType: 'MasterCard',
  nameOnCard: 'Ada Lovelace',
  displayName: 'MasterCard ending in 4444',
  ...over,
});

describe('cardLabel: brand and last four once each', () => {
  it('drops the gateway’s default name, which repeats them', () => {
    expect(cardLabel(card({}))).toBe('MasterCard •••• 4444');
  });
  it('keeps a name the shopper gave the card', () => {
    expect(cardLabel(card({ displayName: 'Work card' }))).toBe('MasterCard •••• 4444 · Work card');
  });
  it('without a brand or a name: the last four alone', () => {
    expect(cardLabel(card({ cardType: null, displayName: null }))).toBe('•••• 4444');
  });
});
