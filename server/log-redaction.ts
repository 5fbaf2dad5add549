/**
 * The log's first layer (server/logger.ts): fields whose names say they hold a secret are written
 * as `[redacted]`. A key in SECRET_KEYS is censored at the top of a logged object and one and two
 * levels below it (what pino's `redact` did with the paths `k`, `*.k` and `*.*.k`), and so are the
 * request headers `cookie` and `x-payframe-relay` and the response header `set-cookie`.
 *
 * Why not pino's `redact`: with these 57 paths, 54 of them wildcards, it cost ≈55 µs on every line
 * written (its redactor parses every path and clones on every call), more than all the rest of a
 * small SOAP call's work (issue 18), and every request writes a line at the default level. This
 * walk reads at most three levels of the object's own keys and allocates nothing unless it censors;
 * what it censors it replaces in copies, never in the caller's objects.
 *
 * Values reach it before pino's serializers (a pino `formatters.log`). Fastify's request and
 * reply, logged under `req` and `res`, are left to their serializers, which write only the method,
 * URL, host, client address and status; an Error is walked through its own enumerable fields and its
 * `cause`, which pino's error serializer writes.
 */

export const SECRET_KEYS: ReadonlySet<string> = new Set([
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
  'Secret',
  'authorization',
]);

export const CENSOR = '[redacted]';

/** Header names censored under `req.headers` / `res.headers` besides SECRET_KEYS. */
const REQUEST_HEADERS: ReadonlySet<string> = new Set(['cookie', 'x-payframe-relay']);
const RESPONSE_HEADERS: ReadonlySet<string> = new Set(['set-cookie']);

type Bag = Record<string, unknown>;

function isObject(value: unknown): value is Bag {
  return typeof value === 'object' && value !== null;
}

function isPlain(value: Bag): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The keys pino writes of a value: own enumerable ones, and an Error's `cause`. */
function keysOf(value: Bag): string[] {
  const keys = Object.keys(value);
  if (value instanceof Error && 'cause' in value && !keys.includes('cause')) keys.push('cause');
  return keys;
}

/** A copy that reads as the original does (prototype, getters, an Error's message and stack). */
function copyOf(value: Bag): Bag {
  if (Array.isArray(value)) return value.slice() as unknown as Bag;
  if (isPlain(value)) return { ...value };
  return Object.create(
    Object.getPrototypeOf(value) as object | null,
    Object.getOwnPropertyDescriptors(value),
  ) as Bag;
}

/**
 * `value` (at `depth` 1 or 2 below the logged object) with secrets censored in its fields and, at
 * depth 1, in theirs; the same object when there is nothing to censor. `extra` names more keys to
 * censor at this level (the headers).
 */
function redactBelow(value: Bag, depth: number, extra: ReadonlySet<string> | undefined): Bag {
  let out: Bag | undefined;
  for (const key of keysOf(value)) {
    const field = value[key];
    let next: unknown = field;
    if (SECRET_KEYS.has(key) || extra?.has(key)) next = CENSOR;
    else if (depth === 1 && isObject(field)) next = redactBelow(field, 2, undefined);
    if (next !== field) {
      out ??= copyOf(value);
      out[key] = next;
    }
  }
  return out ?? value;
}

/** The logged object (or a child's bindings) with its secrets censored; itself when it holds none. */
export function redactSecrets<T extends Bag>(object: T): T {
  let out: Bag | undefined;
  for (const key of Object.keys(object)) {
    const value = object[key];
    let next: unknown = value;
    if (SECRET_KEYS.has(key)) next = CENSOR;
    else if (isObject(value)) {
      // Fastify's request and reply: their serializers write only fields that hold no secret.
      if ((key === 'req' || key === 'res') && !isPlain(value)) continue;
      next = redactHeaders(key, redactBelow(value, 1, undefined));
    }
    if (next !== value) {
      out ??= { ...object };
      out[key] = next;
    }
  }
  return (out ?? object) as T;
}

/** `req.headers.cookie`, `req.headers["x-payframe-relay"]` and `res.headers["set-cookie"]`. */
function redactHeaders(key: string, value: Bag): Bag {
  const names = key === 'req' ? REQUEST_HEADERS : key === 'res' ? RESPONSE_HEADERS : undefined;
  const headers = names ? value['headers'] : undefined;
  if (!names || !isObject(headers)) return value;
  const redacted = redactBelow(headers, 2, names);
  if (redacted === headers) return value;
  const out = copyOf(value);
  out['headers'] = redacted;
  return out;
}
