/**
 * Transport (security-requirements.md PCI-421-1, ASVS-341; attack row 32). TLS is the reverse
 * proxy's (docs/deployment.md). The nginx configuration Payframe ships offers TLS 1.2 and 1.3 only,
 * answers plain HTTP with nothing but a 301 to https, and sends HSTS of at least a year on every
 * answer; test/system/nginx.test.ts runs that file for real in front of a Payframe server.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const NGINX_CONF = fileURLToPath(new URL('../../deploy/nginx/payframe.conf', import.meta.url));

/** The `server { … }` blocks of an nginx file, comments removed (no nested braces but `location`). */
function serverBlocks(conf: string): string[] {
  const text = conf.replace(/#.*$/gm, '');
  const blocks: string[] = [];
  for (let at = text.search(/\bserver\s*\{/); at >= 0;) {
    let depth = 0;
    let end = text.indexOf('{', at);
    for (; end < text.length; end += 1) {
      if (text[end] === '{') depth += 1;
      if (text[end] === '}' && --depth === 0) break;
    }
    blocks.push(text.slice(at, end + 1));
    const next = text.slice(end + 1).search(/\bserver\s*\{/);
    at = next < 0 ? -1 : end + 1 + next;
  }
  return blocks;
}

describe('row 32: the shipped nginx configuration', () => {
  const blocks = serverBlocks(readFileSync(NGINX_CONF, 'utf8'));
  const tls = blocks.filter((b) => /\blisten\s+[^;]*\bssl\b/.test(b));
  const plain = blocks.filter((b) => !/\blisten\s+[^;]*\bssl\b/.test(b));

  it('row 32: the shipped nginx configuration offers TLS 1.2 and 1.3 only', () => {
    expect(tls.length).toBeGreaterThan(0);
    for (const b of tls) {
      const protocols = /\bssl_protocols\s+([^;]+);/.exec(b)?.[1]?.trim().split(/\s+/);
      expect(protocols?.sort()).toEqual(['TLSv1.2', 'TLSv1.3']);
      const ciphers = /\bssl_ciphers\s+([^;]+);/.exec(b)?.[1] ?? '';
      expect(ciphers).not.toMatch(/\b(NULL|EXPORT|RC4|DES|MD5)\b/i);
    }
  });

  it('row 32: the shipped nginx configuration answers plain HTTP with a 301 to https only', () => {
    expect(plain.length).toBeGreaterThan(0);
    for (const b of plain) {
      expect(b).toMatch(/\breturn\s+301\s+https:\/\/\$host\$request_uri\s*;/);
      expect(b).not.toMatch(/\bproxy_pass\b|\blocation\b/);
    }
  });

  it('row 32: the shipped nginx configuration sends HSTS of a year or more, on every answer', () => {
    for (const b of tls) {
      const hsts = /add_header\s+Strict-Transport-Security\s+"([^"]+)"\s+always\s*;/i.exec(b)?.[1];
      expect(hsts).toBeDefined();
      expect(Number(/max-age=(\d+)/.exec(hsts!)?.[1])).toBeGreaterThanOrEqual(31_536_000);
      expect(hsts).toContain('includeSubDomains');
    }
  });
});
