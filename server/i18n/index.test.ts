/**
 * The server's shopper texts (server/i18n): every page language has every English key with the same
 * placeholders, in its own words; the one-time code's messages stay sendable in each; the language
 * follows the session's locale, else the browser's.
 */
import { describe, expect, it } from 'vitest';
import { PAGE_LANGS } from '../../shared/checkout/page-lang.ts';
import { checkMessage } from '../notify/message.ts';
import { en, type ShopperTextKey } from './en.ts';
import { fill, shopperLang, shopperTexts } from './index.ts';

const KEYS = Object.keys(en) as ShopperTextKey[];
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe.each(PAGE_LANGS)('server shopper texts in %s', (lang) => {
  const t = shopperTexts(lang);

  it('has every English key and no other, each with the same placeholders', () => {
    expect(Object.keys(t).sort()).toEqual([...KEYS].sort());
    for (const key of KEYS) {
      expect(placeholders(t[key]), key).toEqual(placeholders(en[key]));
      expect(t[key].trim(), key).not.toBe('');
    }
  });

  it.skipIf(lang === 'en')('is written in its own words, not left in English', () => {
    const same = KEYS.filter((key) => t[key] === en[key]);
    expect(same).toEqual([]);
  });

  it("sends the one-time code: the notifier's checks pass, the code is the message's only 6-digit number", () => {
    const vars = { code: '048213', merchant: t.otpMerchant, minutes: 10, until: '14:05 UTC' };
    const sms = fill(t.otpSms, vars);
    const email = { subject: fill(t.otpSubject, vars), text: fill(t.otpEmail, vars) };
    for (const text of [sms, email.subject, email.text]) {
      expect(text).not.toMatch(/\{\w+\}/);
      // What a reader of the message (and the e2e helper) takes for the code.
      expect([...text.matchAll(/\b\d{6}\b/g)].map((m) => m[0])).toEqual(['048213']);
    }
    expect(() =>
      checkMessage({ channel: 'sms', to: '+14155550100', purpose: 'otp', text: sms }),
    ).not.toThrow();
    expect(() =>
      checkMessage({ channel: 'email', to: 'ada@example.com', purpose: 'otp', ...email }),
    ).not.toThrow();
  });
});

describe('right-to-left texts', () => {
  it.each(['ar', 'he'] as const)('%s isolates the merchant and the times (U+2068 … U+2069)', (lang) => {
    const t = shopperTexts(lang);
    for (const key of KEYS) {
      for (const name of ['merchant', 'until', 'time']) {
        if (t[key].includes(`{${name}}`)) expect(t[key], key).toContain(`\u2068{${name}}\u2069`);
      }
    }
  });
});

describe('the shopper language', () => {
  it("is the page's own when the form says it (the shopper may have picked another)", () => {
    expect(shopperLang({ page: 'ja', locale: 'es', acceptLanguage: 'de' })).toBe('ja');
    expect(shopperLang({ page: 'tlh', locale: 'es' })).toBe('es');
    expect(shopperLang({ page: ['ja'], locale: 'es' })).toBe('es');
  });

  it("else the session's locale, whatever the browser asks", () => {
    expect(shopperLang({ locale: 'es-MX', acceptLanguage: 'de-DE,de;q=0.9' })).toBe('es');
    expect(shopperLang({ locale: 'ar', acceptLanguage: 'ja' })).toBe('ar');
  });

  it("else the browser's languages by q-value, then English", () => {
    expect(shopperLang({ acceptLanguage: 'nb, de;q=0.8, fr;q=0.9' })).toBe('fr');
    expect(shopperLang({ locale: 'xx', acceptLanguage: 'he-IL' })).toBe('he');
    expect(shopperLang({ acceptLanguage: 'pt' })).toBe('pt-BR');
    expect(shopperLang({ locale: null, acceptLanguage: 'zh-Hans-CN' })).toBe('zh-CN');
    expect(shopperLang({ acceptLanguage: 'nb, nn;q=0.5' })).toBe('en');
    expect(shopperLang({})).toBe('en');
  });
});

describe('fill', () => {
  it('replaces the placeholders it has values for and leaves the others', () => {
    expect(fill('{a} and {b}, {a}', { a: 1 })).toBe('1 and {b}, 1');
  });
});
