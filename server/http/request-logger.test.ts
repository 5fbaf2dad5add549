/**
 * The per-request logger made on first use (request-logger.ts): a request that logs nothing at the
 * configured level makes no child logger; one that logs writes the same line a child would, with its
 * request id, redaction and card-number masking. And the one line a request writes when it ends
 * (request-log.ts).
 */
import Fastify, { type FastifyBaseLogger, LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { OneLineRequestLog } from './request-log.ts';
import { lazyRequestLogger } from './request-logger.ts';

function appWith(level: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level, destination: { write: (l) => lines.push(JSON.parse(l)) } });
  let children = 0;
  const child = logger.child;
  // Counted on the root; pino's children inherit it, so `this` stays whichever logger is asked.
  logger.child = function (this: typeof logger, ...args: Parameters<typeof child>) {
    children++;
    return child.apply(this, args);
  } as typeof logger.child;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => 'req-1',
    childLoggerFactory: lazyRequestLogger,
  });
  app.get('/quiet', async (request) => {
    request.log.debug('not written at info');
    return { ok: request.log.level };
  });
  app.get('/loud', async (request) => {
    request.log.warn({ card: '4242 4242 4242 4242', authorization: 'Basic c2VjcmV0' }, 'something');
    request.log.child({ step: 'inner' }).info('from a child');
    return { ok: true };
  });
  return {
    app,
    lines,
    children: () => children,
    // Counted from when the app is ready: Fastify makes loggers of its own while it starts.
    ready: async () => {
      await app.ready();
      children = 0;
    },
  };
}

describe('lazy request logger', () => {
  it('makes no child logger for a request that writes nothing', async () => {
    const { app, lines, children, ready } = appWith('info');
    await ready();
    const res = await app.inject({ url: '/quiet' });
    expect(res.json()).toEqual({ ok: 'info' });
    expect(children()).toBe(0);
    expect(lines).toEqual([]);
  });

  it('writes what a child would: the request id bound, secrets redacted, card numbers masked', async () => {
    const { app, lines, children, ready } = appWith('info');
    await ready();
    await app.inject({ url: '/loud' });
    expect(children()).toBe(2); // the request's own, and the one it asked for
    expect(lines).toHaveLength(2);
    const [warn, info] = lines;
    expect(warn).toMatchObject({ level: 40, reqId: 'req-1', msg: 'something', authorization: '[redacted]' });
    expect(JSON.stringify(warn)).not.toContain('4242 4242 4242 4242');
    expect(info).toMatchObject({ level: 30, reqId: 'req-1', step: 'inner', msg: 'from a child' });
  });

  it('follows the level: debug lines appear at debug', async () => {
    const { app, lines } = appWith('debug');
    await app.inject({ url: '/quiet' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 20, reqId: 'req-1', msg: 'not written at info' });
  });
});

describe('lines through the parent', () => {
  /** Each line a request writes, time blanked, with the lazy logger or with Fastify's own child. */
  async function linesOf(lazy: boolean): Promise<string[]> {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (l) => lines.push(l.replace(/"time":"[^"]+"/, '"time":"-"')) },
    });
    const app = Fastify({
      loggerInstance: logger as FastifyBaseLogger,
      logController: new LogController({ disableRequestLogging: true }),
      genReqId: () => 'req-3',
      ...(lazy ? { childLoggerFactory: lazyRequestLogger } : {}),
    });
    app.get('/', async (request) => {
      request.log.info('plain %s', 'text');
      request.log.info({ n: 1, nested: { password: 'hunter2', ok: true } }, 'fields');
      request.log.warn({ reqId: 'other' }, 'a field named like a binding');
      request.log.error(new Error('boom'), 'an error');
      request.log.info({ after: true }, 'after the child exists');
      return 'ok';
    });
    await app.inject({ url: '/' });
    return lines;
  }

  it('are the same JSON a child would write', async () => {
    const lazy = await linesOf(true);
    const eager = await linesOf(false);
    expect(lazy).toHaveLength(5);
    expect(lazy.map((l) => l.replace(/"stack":"[^"]*"/, ''))).toEqual(
      eager.map((l) => l.replace(/"stack":"[^"]*"/, '')),
    );
    expect(lazy[1]).toContain('"password":"[redacted]"');
  });
});

describe('one request line', () => {
  it('writes one line per request when it ends: method, URL, client, status and time, with the request id', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (l) => lines.push(JSON.parse(l)) } });
    const app = Fastify({
      loggerInstance: logger as FastifyBaseLogger,
      genReqId: () => 'req-2',
      childLoggerFactory: lazyRequestLogger,
      logController: new OneLineRequestLog(),
    });
    app.get('/ok', async () => ({ ok: true }));
    await app.inject({ url: '/ok?x=1', remoteAddress: '192.0.2.7' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      reqId: 'req-2',
      msg: 'request completed',
      req: { method: 'GET', url: '/ok?x=1', remoteAddress: '192.0.2.7' },
      res: { statusCode: 200 },
    });
    expect(typeof lines[0]?.responseTime).toBe('number');
  });
});

describe('the request line written as text', () => {
  async function linesOf(asText: boolean, level = 'info') {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ level, destination: { write: (l) => lines.push(JSON.parse(l)) } });
    const app = Fastify({
      loggerInstance: logger as FastifyBaseLogger,
      genReqId: () => 'req-3',
      childLoggerFactory: lazyRequestLogger,
      logController: new OneLineRequestLog({ asText }),
    });
    app.get('/ok', async () => ({ ok: true }));
    app.get('/quiet', { logLevel: 'warn' }, async () => ({ ok: true }));
    app.get('/fails', async () => {
      throw new Error('no');
    });
    await app.inject({
      url: '/ok?q="\u00fc\\%0A&card=4242424242424242',
      remoteAddress: '192.0.2.7',
      headers: { 'accept-version': '2', host: 'pay.example:8443' },
    });
    await app.inject({ url: '/ok', remoteAddress: '2001:db8::1' });
    await app.inject({ url: '/quiet' });
    await app.inject({ url: '/fails' });
    return lines.map(({ time, responseTime, ...rest }) => {
      expect(typeof time).toBe('string');
      return { ...rest, responseTime: typeof responseTime };
    });
  }

  it('is the JSON pino writes, card numbers scrubbed, and the same lines are left out', async () => {
    const text = await linesOf(true);
    expect(text).toEqual(await linesOf(false));
    // The quiet route writes nothing; the failing one its error (the error handler's) and its line.
    expect(text).toHaveLength(4);
    expect(text[0]).toMatchObject({
      reqId: 'req-3',
      req: { version: '2', host: 'pay.example:8443', remoteAddress: '192.0.2.7' },
    });
    expect(JSON.stringify(text[0])).not.toContain('4242424242424242');
    expect(text[2]).toMatchObject({ level: 50, msg: 'no' });
    expect(text[3]).toMatchObject({ level: 30, res: { statusCode: 500 }, responseTime: 'number' });
    expect(await linesOf(true, 'warn')).toEqual(await linesOf(false, 'warn'));
  });
});
