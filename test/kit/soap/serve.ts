/**
 * The real app listening on a random local port, with a recording Transaction Service behind
 * `/TransactionService.asmx`: what the client and conformance tests call over real HTTP.
 */
import { buildTestApp, type TestApp } from '../app.ts';
import { databaseTargets } from '../databases.ts';
import { type RecordingService, recordingService } from './recording-service.ts';

export interface ServedService {
  rec: RecordingService;
  t: TestApp;
  /** The spec's {base_url}, e.g. `http://127.0.0.1:40123`. */
  baseUrl: string;
  namespace: string;
  serviceUrl: string;
  wsdlUrl: string;
  close(): Promise<void>;
}

export async function serveRecordingService(env: Record<string, string> = {}): Promise<ServedService> {
  const rec = recordingService();
  // The recording service answers every call; the database is there for health and the vault's
  // stored lookup keys, which the app reads at start.
  const db = await databaseTargets()[0]!.open();
  const t = await buildTestApp(
    db,
    { LOG_LEVEL: 'info', ...env },
    { closeDatabase: true, transactionService: rec.service },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the app is not listening on a port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const serviceUrl = `${baseUrl}/TransactionService.asmx`;
  return {
    rec,
    t,
    baseUrl,
    namespace: t.config.soapNamespace,
    serviceUrl,
    wsdlUrl: `${serviceUrl}?WSDL`,
    async close() {
      // Node counts a connection that has not sent a request yet as busy, so `close()` would wait
      // for its request timeout (30 s); undici opens such a spare connection after an aborted call.
      const closing = t.close();
      t.app.server.closeAllConnections();
      await closing;
    },
  };
}
