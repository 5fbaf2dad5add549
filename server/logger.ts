/**
 * Logging with pino. Two layers keep card data and secrets out of the log
 * (security-requirements.md PCI-10-5):
 *  1. log-redaction.ts censors known secret-bearing keys (Authorization, passwords, codes, keys, card
 *     fields) up to two levels down;
 *  2. every serialized line is scrubbed for card numbers with the one detector
 *     (shared/card/card-number-in-text.ts: a brand's prefix and length and Luhn, its digit groups
 *     joined by any spaces, dots, dashes, slashes or plus signs, percent-encoded in a URL or
 *     escaped in the JSON line), so a card number sent in *any* field (a name, a URL path, a query
 *     string, the Host header, an error message) is masked before it is written. Request ids that
 *     could carry one are not kept at all (http/request-id.ts).
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import { maskCardNumbers } from '../shared/card/card-number-in-text.ts';
import { redactSecrets } from './log-redaction.ts';

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

/**
 * Standard output, written once per turn of the event loop: the lines of every request that ended in
 * that turn go out in one write instead of one synchronous write each (a file or a pipe: each write
 * is a system call, ≈7 % of a small SOAP call's CPU; issue 18 §2). Lines keep their order. They are
 * written before the process exits (`exit` runs on process.exit() and on an uncaught exception);
 * a process killed outright (SIGKILL) loses at most the lines of the turn it was in. More than 64 KB
 * pending is written at once.
 */
const stdoutLines = (() => {
  let pending: string[] = [];
  let size = 0;
  let scheduled = false;
  let listening = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.length === 1 ? pending[0]! : pending.join('');
    pending = [];
    size = 0;
    process.stdout.write(text);
  };
  return {
    write(line: string) {
      pending.push(line);
      size += line.length;
      if (size > 65_536) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      if (!listening) {
        listening = true;
        process.once('exit', flush);
      }
    },
  };
})();

export interface LoggerOptions {
  level: string;
  /** Where lines go; standard output by default (`stdoutLines`). Tests pass a collector. */
  destination?: { write(line: string): unknown };
}

export function createLogger(options: LoggerOptions): Logger {
  const target = options.destination ?? stdoutLines;
  const stream: DestinationStream = {
    write(line: string) {
      target.write(scrubCardNumbers(line));
    },
  };
  const logger = pino(
    {
      level: options.level,
      // ISO time keeps a 13-digit epoch number out of the line the scrubber reads.
      timestamp: pino.stdTimeFunctions.isoTime,
      // Secret-bearing fields censored by one walk of what is logged (log-redaction.ts), not by
      // pino's `redact`, whose wildcard paths cost more than a small request's own work.
      formatters: { log: (object) => roundResponseTime(redactSecrets(object)) },
      base: { pid: process.pid },
    },
    stream,
  );
  // A child's bindings are written as given (pino applies `formatters.bindings` to the root's only):
  // they are censored as they are given, for every descendant (children inherit this method).
  const child = logger.child;
  logger.child = function (this: Logger, bindings, childOptions) {
    return child.call(this, redactSecrets(bindings), childOptions);
  } as Logger['child'];
  return logger;
}
