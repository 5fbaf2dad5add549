import { describe, expect, it } from 'vitest';
import { websiteHost } from './format.ts';

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
