/**
 * The node-soap side of the SOAP benchmarks: `soap.listen` on a keep-alive `http.createServer`, with
 * the WSDL Payframe serves (its URL is the first argument), answering the same operations with the
 * same data: the fixture's two (bench/soap.bench.ts), or, with BENCH_NODE_SOAP_RESULTS (a JSON
 * object, operation name → result as node-soap's own client read it from Payframe), those
 * (bench/server.bench.ts). Listens on 127.0.0.1, a random port, and prints `{"port":n}`.
 */
import http from 'node:http';
import soap from 'soap';
import { announce, exitWithParent, profileWhileServing, transactionHistories } from './fixture.ts';

const wsdlUrl = process.argv[2];
if (!wsdlUrl) throw new Error('usage: node-soap-server.ts <Payframe WSDL URL>');
const wsdlXml = await (await fetch(wsdlUrl)).text();

function operationsFrom(results: Record<string, unknown>): Record<string, () => Promise<unknown>> {
  return Object.fromEntries(Object.entries(results).map(([name, result]) => [name, async () => result]));
}

const operations = process.env.BENCH_NODE_SOAP_RESULTS
  ? operationsFrom(JSON.parse(process.env.BENCH_NODE_SOAP_RESULTS) as Record<string, unknown>)
  : {
      GetTransactionHistories: async () => ({
        GetTransactionHistoriesResult: { TransactionHistory: transactionHistories },
      }),
      Verify3DSecureMerchant: async () => ({ Verify3DSecureMerchantResult: true }),
    };
const serviceObject = {
  TransactionService: { TransactionServiceSoap: operations, TransactionServiceSoap12: operations },
};

const server = http.createServer({ keepAlive: true });
soap.listen(server, '/TransactionService.asmx', serviceObject, wsdlXml);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
if (typeof address !== 'object' || address === null) throw new Error('no address');
const stopProfiling = await profileWhileServing('node-soap');
exitWithParent(async () => {
  await stopProfiling();
  await new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
});
announce(address.port);
