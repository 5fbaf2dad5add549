/**
 * PCI-331-1 / PCI-351-1 / PCI-10-5: after approvals and declines (a CVV sent with each), no table
 * of the database and no line of the log holds a card number or the CVV in clear.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../testing/databases.ts';
import { futureExpiry, type GatewayWorld, openWorld } from './testing/gateway-kit.ts';
import { request, soapCall } from './testing/soap-call.ts';

const CARDS = [
  '4242424242424242',
  '4000000000000002',
  '4000000000009995',
  '378282246310005',
  '4000000000000127',
];
// CVVs unlikely to occur by chance in ids or amounts; checked as whole values.
const CVV3 = '947';
const CVV4 = '8316';

for (const target of databaseTargets()) {
  describe(`card data at rest on ${target.name}`, () => {
    let w: GatewayWorld;
    beforeAll(async () => {
      w = await openWorld(target, { LOG_LEVEL: 'trace' }); // every line the app can write
      for (const pan of CARDS) {
        const reply = await soapCall(
          w.app,
          'ProcessTransaction',
          {
            request: request({
              MerchantID: w.a.id,
              Amount: '12.34',
              CardNumber: pan,
              ExpirationDate: futureExpiry(),
              CVV2: pan.startsWith('37') ? CVV4 : CVV3,
              CardName: 'Card Holder',
              CreateToken: true,
            }),
          },
          w.a.as,
        );
        expect(reply.status).toBe(200);
      }
    });
    afterAll(() => w.close());

    it('no table holds a card number, its digits, or a CVV value', async () => {
      const { rows: tables } = await w.db.query<{ table_name: string }>(
        `select table_name from information_schema.tables
         where table_schema = current_schema() and table_type = 'BASE TABLE'`,
      );
      expect(tables.length).toBeGreaterThan(5);
      let scanned = 0;
      for (const { table_name } of tables) {
        const { rows } = await w.db.query(`select * from "${table_name}"`);
        for (const row of rows) {
          for (const [column, value] of Object.entries(row)) {
            scanned++;
            const text = value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
            for (const pan of CARDS) expect(text, `${table_name}.${column}`).not.toContain(pan);
            expect([CVV3, CVV4], `${table_name}.${column}`).not.toContain(text);
            expect(text, `${table_name}.${column}`).not.toMatch(/"(cvv|cvv2|CVV2|cvc)"/);
          }
        }
      }
      expect(scanned).toBeGreaterThan(100);
    });

    it('no log line holds a card number or a CVV', () => {
      const log = w.t.logLines.join('');
      expect(log.length).toBeGreaterThan(0);
      for (const pan of CARDS) expect(log).not.toContain(pan);
      expect(log).not.toMatch(new RegExp(`[":=]\\s*"?(${CVV3}|${CVV4})\\b`));
    });
  });
}
