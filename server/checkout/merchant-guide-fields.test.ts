/**
 * docs/merchant-guide.md against what the code does: the field table of "Create a checkout
 * session" lists every field POST /v1/checkout-sessions takes, and nothing else; the webhooks
 * section says which environments call local addresses, as app.ts decides it.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CreateCheckoutSessionBody } from '../../shared/checkout/session-schemas.ts';

const GUIDE = fs.readFileSync(new URL('../../docs/merchant-guide.md', import.meta.url), 'utf8');
const APP = fs.readFileSync(new URL('../app.ts', import.meta.url), 'utf8');

describe('the merchant guide', () => {
  it('lists every field of POST /v1/checkout-sessions in its table, expiresInMinutes among them', () => {
    const start = GUIDE.indexOf('| Field         | Rules');
    expect(start).toBeGreaterThan(0);
    const table = GUIDE.slice(start).split('\n\n')[0]!.split('\n').slice(2);
    const listed = table.map((row) => /^\| `(\w+)`/.exec(row)?.[1]);
    expect(listed.sort()).toEqual(Object.keys(CreateCheckoutSessionBody.shape).sort());
    const expiry = table.find((row) => row.startsWith('| `expiresInMinutes`'))!;
    expect(expiry).toContain('from 1 to 43200');
    expect(expiry).toContain('`SESSION_TTL_MINUTES`');
  });

  it('says that outside production webhooks to local addresses are called, as the app does', () => {
    // The rule the guide states, where the app sets it.
    expect(APP).toContain("webhooks: { allowPrivateNetworks: config.env !== 'production' }");
    const text = GUIDE.replace(/\s+/g, ' ');
    expect(text).toContain(
      'In production, webhook URLs that resolve to private, loopback or link-local addresses are not called. Outside production (`NODE_ENV` `development`, the default, or `test`) they are',
    );
  });
});
