/**
 * node-soap leaves out every element the caller does not set (README.md "Quirks found"), value
 * types included, where ASMX would read their defaults. Against the real gateway on each database,
 * a sale that sets only what a sale needs is approved, and a recurring sale without its
 * RecurringAmount is refused naming the element (issue 18 §4; shared/contract/missing-values.ts).
 */
import soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { futureExpiry, type GatewayWorld, openWorld } from '../../kit/gateway/gateway-kit.ts';
import { databaseTargets } from '../../kit/databases.ts';

interface SaleResponse {
  ProcessTransactionResult: { TransactionID: string; ResponseCode: string; MaskedCardNumber?: string };
}

for (const target of databaseTargets()) {
  describe(`node-soap omitting value types (${target.name})`, () => {
    let w: GatewayWorld;
    let client: soap.Client;

    beforeAll(async () => {
      w = await openWorld(target);
      await w.app.listen({ port: 0, host: '127.0.0.1' });
      const address = w.app.server.address();
      if (address === null || typeof address === 'string') throw new Error('not listening on a port');
      const asText = (text: string) => text;
      client = await soap.createClientAsync(`http://127.0.0.1:${address.port}/TransactionService.asmx?WSDL`, {
        disableCache: true,
        customDeserializer: { long: asText, decimal: asText },
      });
      client.setSecurity(new soap.BasicAuthSecurity(w.b.id, w.b.key));
    }, 60_000);
    afterAll(async () => {
      const closing = w?.close();
      w?.app.server.closeAllConnections();
      await closing;
    });

    const sale = (extra: Record<string, unknown> = {}) => ({
      request: {
        TestRequest: false,
        MerchantID: w.b.id,
        Amount: '10.50',
        CardNumber: '4242424242424242',
        ExpirationDate: futureExpiry(),
        CVV2: '123',
        TransactionType: 'sale',
        ...extra,
      },
    });

    it('a sale without the other 18 value-type elements of Request is approved', async () => {
      const [result, raw] = (await client.ProcessTransactionAsync(sale())) as [SaleResponse, string];
      expect(raw).toContain('<ResponseCode>00</ResponseCode>');
      expect(result.ProcessTransactionResult.ResponseCode).toBe('00');
      expect(result.ProcessTransactionResult.TransactionID).not.toBe('0');
      const { rows } = await w.db.query<{ amount: string }>(
        'select amount::text as amount from transactions where id = $1',
        [result.ProcessTransactionResult.TransactionID],
      );
      expect(rows[0]?.amount).toBe('10.50');
    });

    it('a recurring sale without RecurringAmount is refused, naming it, and nothing is recorded', async () => {
      const before = await w.db.query<{ n: string }>('select count(*)::text as n from transactions');
      const call = client.ProcessTransactionAsync(
        sale({ IsRecurring: true, RecurringFrequency: 'Monthly', RecurringStartDate: '2030-01-01T00:00:00' }),
      );
      await expect(call).rejects.toThrow(
        /Required element 'request\/RecurringAmount' is missing\. It is required when IsRecurring is true\./,
      );
      const after = await w.db.query<{ n: string }>('select count(*)::text as n from transactions');
      expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
    });
  });
}
