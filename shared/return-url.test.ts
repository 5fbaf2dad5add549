import { describe, expect, it } from 'vitest';
import { checkReturnUrl, normalizeOrigin } from './return-url.ts';

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
    ['https://shop.example/%0d%0aSet-Cookie:x=1', 'invalid_url'],
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

describe('registered origins', () => {
  it('normalizes and validates', () => {
    expect(normalizeOrigin('https://Shop.Example:443')).toEqual({ origin: 'https://shop.example' });
    expect(normalizeOrigin('http://127.0.0.1:3001')).toEqual({ origin: 'http://127.0.0.1:3001' });
    expect(normalizeOrigin('http://shop.example')).toEqual({ problem: 'insecure_scheme' });
    expect(normalizeOrigin('https://shop.example/path')).toEqual({ problem: 'invalid_url' });
    expect(normalizeOrigin('nonsense')).toEqual({ problem: 'invalid_url' });
  });
});
