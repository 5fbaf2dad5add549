/**
 * Logging with pino. Two layers keep card data and secrets out of the log
 * (security-requirements.md PCI-10-5):
 *  1. `redact` removes known secret-bearing keys (Authorization, passwords, codes, keys, card fields);
 *  2. every serialized line is scrubbed for Luhn-valid 13–19 digit numbers, so a card number sent in
 *     *any* field (a name, a query string, an error message) is masked before it is written.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import { luhnValid } from '../shared/card/luhn.ts';

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

/** Runs of 13+ digits, each optionally separated by one space or dash, as card numbers are typed. */
// Whole runs only, and not the fraction of a decimal number ("responseTime":1.0000000000998899).
const DIGIT_RUN = /(?<!\d)(?<!\d\.\d*)\d(?:[ -]?\d){12,}/g;

/** Masks every Luhn-valid window of 13–19 digits inside a run of digits, keeping the last four. */
function maskRun(run: string): string {
  const positions: number[] = [];
  for (let i = 0; i < run.length; i++)
    if (run.charCodeAt(i) >= 48 && run.charCodeAt(i) <= 57) positions.push(i);
  const digits = positions.map((p) => run[p]).join('');
  const masked = new Array<boolean>(digits.length).fill(false);
  for (let start = 0; start + 13 <= digits.length; start++) {
    for (let len = 13; len <= 19 && start + len <= digits.length; len++) {
      if (luhnValid(digits.slice(start, start + len))) {
        for (let i = start; i < start + len - 4; i++) masked[i] = true;
      }
    }
  }
  if (!masked.includes(true)) return run;
  const chars = run.split('');
  positions.forEach((p, i) => {
    if (masked[i]) chars[p] = '*';
  });
  return chars.join('');
}

export function scrubCardNumbers(line: string): string {
  return line.replace(DIGIT_RUN, maskRun);
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
      base: { pid: process.pid },
    },
    stream,
  );
}
