/**
 * Logging with pino. Two layers keep card data and secrets out of the log
 * (security-requirements.md PCI-10-5):
 *  1. `redact` removes known secret-bearing keys (Authorization, passwords, codes, keys, card fields);
 *  2. every serialized line is scrubbed for card numbers with the one detector
 *     (shared/card/card-number-in-text.ts: a brand's prefix and length and Luhn, its digit groups
 *     joined by any spaces, dots, dashes, slashes or plus signs, percent-encoded in a URL or
 *     escaped in the JSON line), so a card number sent in *any* field (a name, a URL path, a query
 *     string, the Host header, an error message) is masked before it is written. Request ids that
 *     could carry one are not kept at all (http/request-id.ts).
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import { maskCardNumbers } from '../shared/card/card-number-in-text.ts';

const SECRET_KEYS = [
  'password',
  'Password',
  'cardNumber',
  'CardNumber',
  'pan',
  'cvv',
  'CVV2',
  'cvv2',
  'cvc',
  'TransactionKey',
  'transactionKey',
  'code',
  'otp',
  'OneTimePasswordForPhone',
  'OneTimePasswordForEmail',
  'key',
  'secret',
  'authorization',
];

const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-payframe-relay"]',
  'res.headers["set-cookie"]',
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((k) => `*.${k}`),
  ...SECRET_KEYS.map((k) => `*.*.${k}`),
];

/**
 * Masks every card number in a serialized line, keeping its last four digits. The detector is
 * shared/card/card-number-in-text.ts, the one the checkout API, the gateway and the notifier refuse text
 * with, so the log masks exactly what they refuse.
 */
export const scrubCardNumbers = maskCardNumbers;

/**
 * A line's own numbers that the scrubber would otherwise read: Fastify's `responseTime` is a float
 * in milliseconds whose 15–17 digits after the point can pass for a card number one time in
 * several hundred, so it is written to the microsecond.
 */
function roundResponseTime(object: Record<string, unknown>): Record<string, unknown> {
  const time = object['responseTime'];
  if (typeof time !== 'number') return object;
  return { ...object, responseTime: Math.round(time * 1000) / 1000 };
}

export interface LoggerOptions {
  level: string;
  /** Where lines go; standard output by default. Tests pass a collector. */
  destination?: { write(line: string): unknown };
}

export function createLogger(options: LoggerOptions): Logger {
  const target = options.destination ?? process.stdout;
  const stream: DestinationStream = {
    write(line: string) {
      target.write(scrubCardNumbers(line));
    },
  };
  return pino(
    {
      level: options.level,
      // ISO time keeps a 13-digit epoch number out of the line the scrubber reads.
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { log: roundResponseTime },
      base: { pid: process.pid },
    },
    stream,
  );
}
