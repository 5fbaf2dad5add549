import { describe, expect, it } from 'vitest';
import type { WalletCard } from '../../../shared/checkout/index.ts';
import { cardExpired, cardLabel, expiryText } from './wallet-label.ts';

const card = (over: Partial<WalletCard>): WalletCard => ({
  tokenGuid: '0f8fad5b-d9cb-469f-a165-70867728950e',
  maskedCardNumber: '•••• 4444',
  cardType: 'MasterCard',
  nameOnCard: 'Ada Lovelace',
  displayName: 'MasterCard ending in 4444',
  expiry: { month: 3, year: 2030 },
  ...over,
});

describe('cardLabel: brand and last four once each', () => {
  it('drops the gateway’s default name, which repeats them', () => {
    expect(cardLabel(card({}))).toBe('MasterCard ••4444');
  });
  it('keeps a name the shopper gave the card', () => {
    expect(cardLabel(card({ displayName: 'Work card' }))).toBe('MasterCard ••4444 · Work card');
  });
  it('without a brand or a name: the last four alone', () => {
    expect(cardLabel(card({ cardType: null, displayName: null }))).toBe('••4444');
  });
});

describe('expiryText and cardExpired', () => {
  it('prints the expiry as on the card, MM/YY', () => {
    expect(expiryText(card({}))).toBe('03/30');
    expect(expiryText(card({ expiry: { month: 12, year: 2031 } }))).toBe('12/31');
    expect(expiryText(card({ expiry: null }))).toBeNull();
  });
  it('a card is good through the last day of its month anywhere on earth', () => {
    const march = card({ expiry: { month: 3, year: 2030 } });
    expect(cardExpired(march, new Date('2030-03-31T23:59:00Z'))).toBe(false);
    expect(cardExpired(march, new Date('2030-04-01T11:59:59Z'))).toBe(false);
    expect(cardExpired(march, new Date('2030-04-01T12:00:00Z'))).toBe(true);
    expect(cardExpired(card({ expiry: null }), new Date('2099-01-01T00:00:00Z'))).toBe(false);
  });
});
