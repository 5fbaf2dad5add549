import { describe, expect, it } from 'vitest';
import { PayframeError } from '../../errors.ts';
import { checkOrigins } from './merchant-fields.ts';

describe('checkOrigins (payframe merchant --origin, the dashboard, the merchant store)', () => {
  it('keeps each origin once, in canonical form', () => {
    expect(
      checkOrigins(['https://Shop.Example:443', 'https://shop.example/', 'http://localhost:4000']),
    ).toEqual(['https://shop.example', 'http://localhost:4000']);
  });

  it('says that a URL with a path is not an origin, rather than not a URL', () => {
    let caught: unknown;
    try {
      checkOrigins(['https://shop.example/path']);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PayframeError);
    const message = (caught as PayframeError).message;
    expect(message).toBe(
      'origin "https://shop.example/path" must be an origin only: scheme, host and port (https://shop.example), with no path, query or fragment.',
    );
    expect(message).not.toContain('not a valid absolute URL');
    // What is not a URL at all still says so.
    expect(() => checkOrigins(['shop.example'])).toThrow('"shop.example" is not a valid absolute URL.');
  });
});
