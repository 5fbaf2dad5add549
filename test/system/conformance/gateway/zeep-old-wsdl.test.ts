/**
 * StoredCardDetail.ExpirationDate (issue 14 §6) is appended last with minOccurs 0. What python3-zeep
 * makes of it, over the real server on PGlite and PostgreSQL: a client that reads today's WSDL (as
 * zeep does each time a Client is made) gets the expiry; one still holding a WSDL without the
 * element reads the cards only when not strict — zeep's default strict mode refuses the unknown
 * element (docs/transaction-service.md "StoredCardDetail" says so).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTargets } from '../../../kit/databases.ts';
import { describeWithTools, PYTHON3, python3Zeep } from '../../../kit/tools.ts';
import { type GatewayWorld, openWorld, SERVICE_KEY } from '../../../kit/gateway/gateway-kit.ts';

const SCRIPT = path.join(import.meta.dirname, 'zeep-old-wsdl.py');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON printed by the Python side, checked by the assertions
type Json = Record<string, any>;

function runZeep(job: unknown): Promise<Json> {
  return new Promise((resolve, reject) => {
    const child = execFile(PYTHON3, [SCRIPT], (err, stdout, stderr) =>
      err
        ? reject(new Error(`zeep-old-wsdl.py failed: ${err.message}${stderr}`))
        : resolve(JSON.parse(stdout)),
    );
    child.stdin?.end(JSON.stringify(job));
  });
}

for (const target of databaseTargets()) {
  describeWithTools(
    [python3Zeep],
    `StoredCardDetail's new element through python3-zeep (${target.name})`,
    () => {
      let w: GatewayWorld;
      let out: Json;

      beforeAll(async () => {
        w = await openWorld(target);
        await w.app.listen({ port: 0, host: '127.0.0.1' });
        const address = w.app.server.address();
        if (address === null || typeof address === 'string') throw new Error('not listening on a port');
        const wsdl = `http://127.0.0.1:${address.port}/TransactionService.asmx?WSDL`;
        out = await runZeep({
          wsdl,
          a: w.a,
          serviceKey: SERVICE_KEY,
          email: `old-wsdl-${target.name}@example.com`,
        });
      }, 120_000);
      afterAll(async () => {
        if (!w) return;
        const closing = w.close();
        w.app.server.closeAllConnections();
        await closing;
      });

      it('today’s WSDL reads the expiry; a WSDL without it reads the cards only when zeep is not strict', () => {
        expect(out.saved).toBe(true);
        expect(out.removedFromOldWsdl).toBe(1);
        const yy = String((new Date().getFullYear() + 3) % 100).padStart(2, '0');
        const card = {
          TokenGuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
          MaskedCardNumber: '************4242',
          CardType: 'Visa',
          DisplayName: 'Visa ending in 4242',
        };
        expect(out.current).toEqual({ result: [{ ...card, ExpirationDate: `10${yy}` }] });
        expect(out.oldLenient).toEqual({ result: [card] });
        expect(out.old).toEqual({
          error: "XMLParseError: Unexpected element '{http://tempuri.org/}ExpirationDate'",
        });
      });
    },
  );
}
