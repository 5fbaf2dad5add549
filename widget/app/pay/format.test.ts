import { describe, expect, it } from 'vitest';
import { formatMoney, websiteHost } from './format.ts';

describe("the merchant's website host beside its name", () => {
  it('is the host of an http(s) website, an international domain in punycode', () => {
    expect(websiteHost('https://shop.example/about')).toBe('shop.example');
    expect(websiteHost('http://localhost:3101/')).toBe('localhost:3101');
    expect(websiteHost('https://p\u0430ypal.com/')).toBe('xn--pypal-4ve.com');
    expect(websiteHost('https://bücher.example')).toBe('xn--bcher-kva.example');
  });

  it('is nothing without a website, or for another scheme', () => {
    expect(websiteHost(null)).toBeNull();
    expect(websiteHost('')).toBeNull();
    expect(websiteHost('javascript:alert(1)')).toBeNull();
    expect(websiteHost('not a url')).toBeNull();
  });
});

describe('amounts in the shopper’s language and the session’s currency', () => {
  it('writes each currency’s own decimals: none for JPY, three for KWD and BHD', () => {
    expect(formatMoney('1234', 'JPY', 'ja')).toBe('￥1,234');
    expect(formatMoney('1234', 'JPY', 'en')).toBe('¥1,234');
    expect(formatMoney('12.5', 'KWD', 'en')).toBe('KWD\u00a012.500');
    expect(formatMoney('0.25', 'BHD', 'en')).toBe('BHD\u00a00.250');
    expect(formatMoney('25', 'USD', 'en')).toBe('$25.00');
  });

  it('writes the language’s separators and symbol order', () => {
    expect(formatMoney('1234.50', 'EUR', 'de')).toBe('1.234,50\u00a0€');
    expect(formatMoney('1234.50', 'EUR', 'fr')).toBe('1\u202f234,50\u00a0€');
    expect(formatMoney('1234.50', 'BRL', 'pt-BR')).toBe('R$\u00a01.234,50');
  });

  it('keeps every digit of the largest amount the gateway takes, in any currency’s decimals', () => {
    expect(formatMoney('9999999999.99', 'USD', 'en')).toBe('$9,999,999,999.99');
    expect(formatMoney('9999999999.99', 'KWD', 'en')).toBe('KWD\u00a09,999,999,999.990');
    expect(formatMoney('0.07', 'USD', 'ar')).toMatch(/0\.07|٠٫٠٧/);
  });
});
