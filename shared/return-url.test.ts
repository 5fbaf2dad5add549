import { describe, expect, it } from 'vitest';
import { checkReturnUrl, normalizeOrigin, URL_PROBLEM_MESSAGES } from './return-url.ts';

const ORIGINS = ['https://shop.example', 'http://localhost:3001'];

describe('ReturnUrl (security-requirements.md §7 rows 1–4)', () => {
  it('allows a URL on a registered origin', () => {
    expect(checkReturnUrl('https://shop.example/thanks?o=1', ORIGINS)).toEqual({
      url: 'https://shop.example/thanks?o=1',
    });
    expect(checkReturnUrl('http://localhost:3001/return', ORIGINS)).toEqual({
      url: 'http://localhost:3001/return',
    });
  });

  it.each([
    ['https://evil.example/', 'origin_not_registered'],
    ['https://shop.example.evil.example/', 'origin_not_registered'],
    ['https://shop.example:444/', 'origin_not_registered'],
    ['//evil.example', 'invalid_url'],
    ['/\\evil.example', 'invalid_url'],
    ['https:evil.example', 'origin_not_registered'],
    ['\\\\evil.example', 'invalid_url'],
    ['javascript:alert(1)', 'invalid_url'],
    ['data:text/html,<script>alert(1)</script>', 'invalid_url'],
    ['vbscript:msgbox(1)', 'invalid_url'],
    ['https://shop.example/%0d%0aSet-Cookie:x=1', 'encoded_control'],
    ['https://shop.example/\r\nSet-Cookie: x=1', 'invalid_url'],
    ['http://shop.example/', 'insecure_scheme'],
    ['https://user:pw@shop.example/', 'has_credentials'],
    ['', 'invalid_url'],
  ])('%s', (input, problem) => {
    const r = checkReturnUrl(input, ORIGINS);
    if (problem === undefined)
      expect(r).toHaveProperty('url'); // encoded CR/LF stays inert in a path
    else expect(r).toEqual({ problem });
  });
});

describe('one ReturnUrl validator for REST and SOAP (issue 13 §6)', () => {
  it.each([
    ['https://shop.example/%0d%0aSet-Cookie:x=1', 'encoded_control'],
    ['https://shop.example/thanks?x=%00', 'encoded_control'],
    ['https://shop.example/thanks?x=%1F', 'encoded_control'],
    ['https://shop.example/thanks?x=%7f', 'encoded_control'],
    ['https://shop.example/thanks#%09', 'encoded_control'],
    ['https://shop.example/thanks?x=%C2%85', 'encoded_control'],
    ['https://shop.example/thanks?x=\u0085', 'encoded_control'],
    ['https://shop.example/%E2%80%AEtxt.exe', 'encoded_control'],
    ['https://shop.example/\u202Etxt.exe', 'encoded_control'],
    ['https://shop.example/a\u200Bb', 'encoded_control'],
    ['https://shop.example/a%EF%BB%BFb', 'encoded_control'],
    ['https://shop.example/a%e2%81%a6b', 'encoded_control'],
  ])('refuses %s (%s), however it is spelled', (input, problem) => {
    const value = input.replace(/\\u([0-9A-F]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    expect(checkReturnUrl(value, ORIGINS)).toEqual({ problem });
  });

  it('allows ordinary escapes and letters of any script', () => {
    for (const ok of [
      'https://shop.example/thanks?q=%41%20b',
      'https://shop.example/caf%C3%A9',
      'https://shop.example/été?x=€',
      'https://shop.example/a%E2%82%AC',
    ]) {
      expect(checkReturnUrl(ok, ORIGINS), ok).toHaveProperty('url');
    }
  });

  it('is at most 2,048 characters, before and after parsing', () => {
    const base = 'https://shop.example/';
    expect(checkReturnUrl(base + 'a'.repeat(2048 - base.length), ORIGINS)).toHaveProperty('url');
    expect(checkReturnUrl(base + 'a'.repeat(2049 - base.length), ORIGINS)).toEqual({ problem: 'too_long' });
    // 700 spaces are 700 characters typed, 2,100 once the parser encodes them.
    expect(checkReturnUrl(`${base}?q=${' '.repeat(700)}x`, ORIGINS)).toEqual({ problem: 'too_long' });
  });
});

describe('registered origins', () => {
  it('normalizes and validates', () => {
    expect(normalizeOrigin('https://Shop.Example:443')).toEqual({ origin: 'https://shop.example' });
    expect(normalizeOrigin('http://127.0.0.1:3001')).toEqual({ origin: 'http://127.0.0.1:3001' });
    expect(normalizeOrigin('http://shop.example')).toEqual({ problem: 'insecure_scheme' });
    expect(normalizeOrigin('https://shop.example/path')).toEqual({ problem: 'not_an_origin' });
    expect(normalizeOrigin('https://shop.example/?q=1')).toEqual({ problem: 'not_an_origin' });
    expect(normalizeOrigin('https://shop.example#top')).toEqual({ problem: 'not_an_origin' });
    expect(URL_PROBLEM_MESSAGES.not_an_origin).toContain('with no path');
    expect(normalizeOrigin('nonsense')).toEqual({ problem: 'invalid_url' });
  });
});
