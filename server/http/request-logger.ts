/**
 * The per-request logger (Fastify's `childLoggerFactory`), made only when the request logs.
 *
 * Fastify gives every request a child of the app's logger with its request id bound. pino builds a
 * child eagerly, and with redaction configured (server/logger.ts) that costs about as much as a
 * small SOAP call's own work (issue 18: ≈25 µs of a ≈150 µs call). Most requests log nothing at
 * the configured level, so each gets this stand-in instead: it answers level questions from its
 * parent and writes a line through the parent with its bindings merged in (the same JSON); it makes
 * the real child, with the same bindings and options, only when a line needs it (an Error logged,
 * fields that repeat a binding) or something asks for the child. Lines read exactly as a child's
 * would.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** The part of a pino logger this module uses (the app's logger is a pino Logger). */
interface ParentLogger extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
  levels: { values: Record<string, number> };
  levelVal: number;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

class LazyRequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: ParentLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: ParentLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  #enabled(level: Level): boolean {
    if (this.#child) return (this.#child as ParentLogger).isLevelEnabled(level);
    const own = this.#options.level;
    if (own === undefined) return this.#parent.isLevelEnabled(level);
    const values = this.#parent.levels.values;
    return (values[level] ?? Infinity) >= (values[own] ?? Infinity);
  }

  get level(): LevelWithSilentOrString {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.#real().level = level;
  }

  // Methods on the prototype, not arrow-function fields: a request must not pay for six closures.
  fatal(...args: unknown[]): void {
    if (this.#enabled('fatal')) this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    if (this.#enabled('error')) this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    if (this.#enabled('warn')) this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    if (this.#enabled('info')) this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    if (this.#enabled('debug')) this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    if (this.#enabled('trace')) this.#write('trace', args);
  }
  silent(): void {}

  #write(level: Level, args: unknown[]): void {
    // Until something needs the child itself, a line goes through the parent with the bindings
    // merged in front of its own fields: the same JSON, without making a child (pino redacts a
    // child's bindings as it makes it). An Error, or fields that repeat a binding, get the child.
    if (this.#child === undefined && Object.keys(this.#options).length === 0) {
      const [first, ...rest] = args;
      if (typeof first === 'string') {
        Reflect.apply(this.#parent[level], this.#parent, [this.#bindings, ...args]);
        return;
      }
      if (isPlainObject(first) && !Object.keys(this.#bindings).some((k) => Object.hasOwn(first, k))) {
        Reflect.apply(this.#parent[level], this.#parent, [{ ...this.#bindings, ...first }, ...rest]);
        return;
      }
    }
    const real = this.#real();
    Reflect.apply(real[level], real, args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory` option: the request's logger, made when first written to. */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(logger as ParentLogger, bindings, options);
}
