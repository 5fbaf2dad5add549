/**
 * The log's redaction (log-redaction.ts) writes what pino's `redact` wrote with the paths the
 * logger used before (every secret key at the top, `*.key` and `*.*.key`, the request and response
 * headers), through Fastify's own serializers: the same line for each of a set of logged values
 * (nesting to four levels, arrays, errors with codes and causes, headers, bindings, class
 * instances), and the caller's objects untouched.
 */
import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { CENSOR, redactSecrets, SECRET_KEYS } from './log-redaction.ts';
import { createLogger } from './logger.ts';

/** The configuration the logger had before: pino's `redact` with these paths. */
const PATHS_BEFORE = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-payframe-relay"]',
  'res.headers["set-cookie"]',
  ...SECRET_KEYS,
  ...[...SECRET_KEYS].map((k) => `*.${k}`),
  ...[...SECRET_KEYS].map((k) => `*.*.${k}`),
];

class Account {
  password = 'hunter2';
  name = 'acct';
}

function withCode<E extends Error>(err: E, code: string): E {
  return Object.assign(err, { code });
}

type Logged = (log: FastifyBaseLogger) => void;

const CASES: [string, Logged][] = [
  ['top-level secrets', (l) => l.info({ password: 'p', code: 5, key: 'k', name: 'n' }, 'm')],
  ['one level down', (l) => l.info({ user: { password: 'p', name: 'n', cvv: '123' } })],
  ['two levels down', (l) => l.info({ a: { b: { TransactionKey: 't', keep: 1 } } })],
  ['three levels down are not censored', (l) => l.info({ a: { b: { c: { password: 'deep' } } } })],
  ['arrays', (l) => l.info({ list: [{ key: 'k' }, { cardNumber: '4242' }], deep: [[{ otp: '1' }]] })],
  [
    'request headers',
    (l) =>
      l.info({
        req: {
          method: 'GET',
          url: '/',
          headers: { authorization: 'Basic x', cookie: 'c', 'x-payframe-relay': 'r' },
        },
      }),
  ],
  ['headers under another key', (l) => l.info({ other: { headers: { cookie: 'c', authorization: 'a' } } })],
  ['response headers', (l) => l.info({ res: { statusCode: 200, headers: { 'set-cookie': 's' } } })],
  ['an error', (l) => l.error({ err: withCode(new Error('boom'), 'E_CODE') }, 'failed')],
  ['an error first', (l) => l.error(withCode(new Error('first'), 'E1'), 'failed')],
  [
    'an error with a cause',
    (l) => l.error({ err: new Error('outer', { cause: withCode(new Error('inner'), 'E2') }) }, 'x'),
  ],
  [
    'an error with fields',
    (l) => l.warn({ err: Object.assign(new Error('f'), { fields: [{ code: 'c' }] }) }),
  ],
  ['class instances', (l) => l.info({ account: new Account(), nested: { account: new Account() } })],
  ['a plain message', (l) => l.info('plain %s', 'text')],
  [
    'a child with secret bindings',
    (l) => l.child({ secret: 's', ctx: { password: 'p', ok: 1 } }).info({ n: 1 }, 'c'),
  ],
  ['responseTime', (l) => l.info({ responseTime: 1.23456789 }, 'done')],
];

/** The line each case writes through a Fastify app's logger (its serializers), time blanked. */
function lines(logger: pino.Logger, lines: string[]): (c: Logged) => string[] {
  const log = Fastify({ loggerInstance: logger as FastifyBaseLogger }).log;
  return (c) => {
    const start = lines.length;
    c(log);
    // Each side makes its own Error objects, so their stacks name different lines of this file.
    return lines
      .slice(start)
      .map((l) =>
        l.replace(/"time":"[^"]+"/, '"time":"-"').replace(/"stack":"(?:[^"\\]|\\.)*"/g, '"stack":"-"'),
      );
  };
}

describe('log redaction', () => {
  const beforeLines: string[] = [];
  const before = lines(
    pino(
      {
        level: 'trace',
        timestamp: pino.stdTimeFunctions.isoTime,
        redact: { paths: PATHS_BEFORE, censor: CENSOR },
        formatters: {
          log: (o) =>
            typeof o['responseTime'] === 'number'
              ? { ...o, responseTime: Math.round(o['responseTime'] * 1000) / 1000 }
              : o,
        },
        base: { pid: process.pid },
      },
      { write: (l: string) => beforeLines.push(l) },
    ),
    beforeLines,
  );
  const nowLines: string[] = [];
  const now = lines(
    createLogger({ level: 'trace', destination: { write: (l) => nowLines.push(l) } }),
    nowLines,
  );

  it.each(CASES)('%s: the line pino redact wrote', (_name, c) => {
    const expected = before(c);
    expect(expected.length).toBeGreaterThan(0);
    expect(now(c)).toEqual(expected);
  });

  it('leaves the caller’s objects as they were', () => {
    const logged = { user: { password: 'p' }, list: [{ key: 'k' }], err: withCode(new Error('e'), 'E') };
    const copy = structuredClone({ user: logged.user, list: logged.list });
    const out = redactSecrets(logged);
    expect(out).not.toBe(logged);
    expect({ user: logged.user, list: logged.list }).toEqual(copy);
    expect((logged.err as Error & { code: string }).code).toBe('E');
    expect((out.err as Error & { code: string }).code).toBe(CENSOR);
    expect(out.err).toBeInstanceOf(Error);
    expect((out.err as Error).message).toBe('e');
  });

  it('writes a URL object as its text (pino’s redact threw on one: its getters need the real URL)', () => {
    const written: string[] = [];
    const log = createLogger({ level: 'info', destination: { write: (l) => written.push(l) } });
    log.info({
      where: new URL('https://example.com/p?x=1'),
      nested: { at: new URL('https://example.com/') },
    });
    expect(JSON.parse(written[0] ?? '{}')).toMatchObject({
      where: 'https://example.com/p?x=1',
      nested: { at: 'https://example.com/' },
    });
  });

  it('allocates nothing for a line without secrets', () => {
    const logged = { req: { method: 'GET', url: '/' }, res: { statusCode: 200 }, responseTime: 1 };
    expect(redactSecrets(logged)).toBe(logged);
  });
});
