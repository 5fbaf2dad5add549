/**
 * Starts the demo store beside Payframe (`payframe serve`, role `all`) on DEMO_PORT, same host.
 * It reaches Payframe at the address Payframe listens on, and sends browsers to PUBLIC_URL. A busy
 * DEMO_PORT costs the demo, not Payframe: a warning, and Payframe runs on.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { buildDemoStore, readDemoMerchant } from './demo-store.ts';

export interface RunningDemoStore {
  url: string;
  close(): Promise<void>;
}

export async function startDemoStore(
  config: Config,
  payframeListenUrl: string,
  logger: Logger,
): Promise<RunningDemoStore | null> {
  const merchant = readDemoMerchant(config.dataDir);
  const app = await buildDemoStore({
    apiUrl: payframeListenUrl,
    payframeUrl: config.publicUrl,
    credentials: merchant,
    origins: merchant?.origins.length
      ? merchant.origins
      : [`http://localhost:${config.demoPort}`, `http://127.0.0.1:${config.demoPort}`],
    // Outside production the codes and e-mails go to the developer outbox (app.ts), unless sent.
    outboxUrl:
      config.env === 'production' || (config.smtpUrl && config.smsWebhookUrl)
        ? null
        : `${config.publicUrl}/dev/outbox`,
    logger: logger.child({ component: 'demo-store' }) as FastifyBaseLogger,
  });
  try {
    await app.listen({ port: config.demoPort, host: config.host });
  } catch (err) {
    logger.warn({ err, port: config.demoPort }, 'demo store not started: DEMO_PORT is not available');
    await app.close();
    return null;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.demoPort;
  return { url: `http://localhost:${port}`, close: () => app.close() };
}
