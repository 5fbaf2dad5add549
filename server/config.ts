/**
 * Configuration, read from the environment once, validated with zod (STYLE.md §6).
 * Nothing else in the project reads `process.env`; `.env.example` documents every variable.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const port = z.coerce.number().int().min(0).max(65535);

/** 32 bytes written as 64 hex digits or as base64 (standard or URL-safe); the key itself is never echoed. */
const KEY_32 = /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/;

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /**
   * The demo (a merchant with a dashboard user, and the demo store on DEMO_PORT): on by default in
   * development only; 1 asks for it in any environment, 0 keeps it off in development too.
   */
  PAYFRAME_DEMO: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** Bytes accepted in one request body; larger bodies get 413 before parsing. */
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** XML namespace of the Transaction Service's messages; it ends with a slash (spec "Placeholders"). */
  SOAP_NAMESPACE: z.string().url().default('http://tempuri.org/'),
  /** HTTP GET/POST bindings of the Transaction Service (ASMX has them off; Payframe on). */
  SOAP_HTTP_BINDINGS: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * Whether the HTTP GET binding also serves operations that change state (CancelHostedPayment,
   * SendVerificationCode, RemoveStoredCard), as ASMX does; off: they answer 405 `Allow: POST`.
   */
  SOAP_HTTP_GET_CHANGES: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** The checkout server's credential for the gateway (HTTP Basic `service:<key>`); unset: in-process only. */
  GATEWAY_SERVICE_KEY: z.string().min(24, 'must be at least 24 characters').optional(),
  /** `serve --role checkout`: the gateway's base URL (its /TransactionService.asmx is called over SOAP). */
  TRANSACTION_SERVICE_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, 'must be an http:// or https:// URL')
    .optional(),
  /**
   * `serve --role checkout`: how long a call to the gateway may take before the checkout gives up on
   * it (a pay's outcome is then unknown, and recovery asks). Below STALE_PAYMENT_SECONDS, so an
   * attempt is never taken for cut short while its call may still be answered; default 15, or half
   * of STALE_PAYMENT_SECONDS when that is less.
   */
  TRANSACTION_SERVICE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).optional(),
  /**
   * `serve --role checkout`: what the service speaks (server/checkout/README.md "Spec mode"):
   * Payframe's extensions, the spec's 21 operations only, or `auto`: its WSDL read once at start.
   */
  TRANSACTION_SERVICE_MODE: z.enum(['payframe', 'spec', 'auto']).default('auto'),
  /** How the checkout authenticates to it: `service` is HTTP Basic `service:GATEWAY_SERVICE_KEY`. */
  TRANSACTION_SERVICE_AUTH: z.enum(['service', 'none', 'basic', 'header']).default('service'),
  TRANSACTION_SERVICE_USERNAME: z.string().optional(),
  TRANSACTION_SERVICE_PASSWORD: z.string().optional(),
  /** With TRANSACTION_SERVICE_AUTH=header: `Name: value`, sent on every call. */
  TRANSACTION_SERVICE_HEADER: z
    .string()
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[ \t]*[^\s].*$/, 'must be "Name: value"')
    .optional(),
  TRANSACTION_SERVICE_SOAP_VERSION: z.enum(['1.1', '1.2']).default('1.1'),
  /** Spec mode: ProcessTransaction ResponseCodes that mean approved, comma-separated. */
  TRANSACTION_SERVICE_APPROVED_CODES: z
    .string()
    .regex(/^\s*[^,\s]+(\s*,\s*[^,\s]+)*\s*$/, 'must be codes separated by commas')
    .default('00'),
  /**
   * `serve --role checkout`: the key of the idempotency fingerprints (32 bytes). A checkout-only
   * instance has no vault key to derive it from; every checkout instance needs the same one.
   */
  CHECKOUT_SECRET: z
    .string()
    .trim()
    .regex(KEY_32, 'must be 32 bytes, written as 64 hex digits or 44 base64 characters')
    .optional(),
  /**
   * Where shoppers reach the checkout pages: the gateway builds checkout-session URLs on it. Default
   * PUBLIC_URL (one process serves both); set it on a `--role gateway` instance.
   */
  CHECKOUT_PUBLIC_URL: z.string().url().optional(),
  /**
   * `serve --role checkout`: where shoppers' browsers reach the gateway (its 3-D Secure pages are
   * framed by the checkout's page); TRANSACTION_SERVICE_URL unless set.
   */
  GATEWAY_PUBLIC_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, 'must be an http:// or https:// URL')
    .optional(),
  /**
   * Minutes without a call after which a merchant user's sign-in (the dashboard) ends: 15 at most
   * (PCI DSS 8.2.8), less where an operator wants it stricter.
   */
  DASHBOARD_IDLE_MINUTES: z.coerce.number().int().min(1).max(15).default(15),
  /**
   * Pay requests one client address may make per minute (card testing, attack row 26): 30 by
   * default; more where many shoppers share an address (a carrier's NAT, a test suite).
   */
  CHECKOUT_PAYS_PER_MINUTE_PER_IP: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Minutes a checkout session stays payable. */
  SESSION_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(60),
  /**
   * Seconds after which a payment still in flight counts as cut short (a crashed instance) and is
   * recovered (server/checkout/README.md, "Exactly one charge"); the gateway's own session claim
   * times out at half of it. Default 40: the claim's 20 s cover the longest a processor call may take
   * (15 s, the SOAP client's limit too) and 5 s for the vault and the record around it
   * (docs/deployment.md, "Payments cut short").
   */
  STALE_PAYMENT_SECONDS: z.coerce.number().int().min(4).max(3600).default(40),
  /** The address shoppers and merchants reach this server at (checkout URLs, challenge URLs). */
  PUBLIC_URL: z.string().url().optional(),
  /** Port of the demo store `npm start` runs beside Payframe (a second origin). */
  DEMO_PORT: port.default(3001),
  /**
   * Behind a reverse proxy: `true`, a hop count, or comma-separated proxy addresses/CIDRs, so the
   * client address (throttling, logs) and protocol come from X-Forwarded-*. Off by default.
   */
  TRUST_PROXY: z.string().default('false'),
  /** Size of the `pg` pool when DATABASE_URL is set. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * The card vault's key (DESIGN.md §5). Unset: generated on first start into
   * DATA_DIR/card-encryption.key (mode 0600). Several instances on one database need the same key.
   */
  CARD_ENCRYPTION_KEY: z
    .string()
    .trim()
    .regex(KEY_32, 'must be 32 bytes, written as 64 hex digits or 44 base64 characters')
    .optional(),
  /**
   * Earlier card encryption keys, comma-separated: read, never written, so a key can change while
   * data encrypted under the old one is still stored (`payframe keys rotate`, docs/deployment.md).
   */
  CARD_ENCRYPTION_KEYS_OLD: z
    .string()
    .trim()
    .refine(
      (v) => v.split(',').every((k) => k.trim() === '' || KEY_32.test(k.trim())),
      'must be comma-separated keys of 32 bytes, each 64 hex digits or 44 base64 characters',
    )
    .optional(),
  /** Bearer token for GET /metrics; unset: /metrics answers only direct loopback connections. */
  METRICS_TOKEN: z.string().trim().min(16, 'must be at least 16 characters').optional(),
  /**
   * E-mail through this SMTP server (`smtp://user:pass@host:587`, `smtps://…:465`); unset: e-mail goes
   * to the dev outbox in the database (docs/gateway-users.md, "Notifier").
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** The From address of every e-mail. */
  SMTP_FROM: z.string().trim().min(3).default('Payframe <no-reply@payframe.invalid>'),
  /** SMS through a JSON POST `{to, text}` to this URL; unset: SMS goes to the dev outbox. */
  SMS_WEBHOOK_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, 'must be an http:// or https:// URL')
    .optional(),
});

export type Config = Readonly<{
  env: 'development' | 'production' | 'test';
  /** Whether `payframe serve` creates the demo merchant and starts the demo store (PAYFRAME_DEMO). */
  demo: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  bodyLimit: number;
  databasePoolSize: number;
  soapNamespace: string;
  soapHttpBindings: boolean;
  /** SOAP_HTTP_GET_CHANGES: HTTP GET may call operations that change state (ASMX's behaviour). */
  soapHttpGetChanges: boolean;
  gatewayServiceKey: string | undefined;
  /** The gateway's base URL for `--role checkout`; unused by the other roles. */
  transactionServiceUrl: string | undefined;
  /** TRANSACTION_SERVICE_TIMEOUT_SECONDS in milliseconds, its default applied. */
  transactionServiceTimeoutMs: number;
  /** `--role checkout`: what the service behind it speaks and how it is called (TRANSACTION_SERVICE_*). */
  transactionService: {
    mode: 'payframe' | 'spec' | 'auto';
    /** `service`: HTTP Basic `service:GATEWAY_SERVICE_KEY`, Payframe's service credential. */
    auth:
      | { kind: 'service' }
      | { kind: 'none' }
      | { kind: 'basic'; username: string; password: string }
      | { kind: 'header'; name: string; value: string };
    soapVersion: '1.1' | '1.2';
    approvedCodes: readonly string[];
  };
  /** CHECKOUT_SECRET decoded (32 bytes); never log it. */
  checkoutSecret: Buffer | undefined;
  /** Base of checkout-session URLs (`<checkoutPublicUrl>/pay/<token>`); PUBLIC_URL unless set. */
  checkoutPublicUrl: string;
  /** Role checkout: the gateway's public address (3-D Secure pages); TRANSACTION_SERVICE_URL unless set. */
  gatewayPublicUrl: string | undefined;
  /** false, true, a hop count (trust that many proxies in front), or proxy addresses/CIDRs. */
  trustProxy: boolean | ((address: string, hop: number) => boolean) | string[];
  sessionTtlMinutes: number;
  /** CHECKOUT_PAYS_PER_MINUTE_PER_IP: pay requests one client address may make per minute. */
  paysPerMinutePerIp: number;
  /** DASHBOARD_IDLE_MINUTES: a merchant user's sign-in ends after this long without a call. */
  dashboardIdleMinutes: number;
  /** STALE_PAYMENT_SECONDS in milliseconds. */
  stalePaymentMs: number;
  publicUrl: string;
  demoPort: number;
  /** The card vault's key as configured (hex or base64), or undefined to use the key file. */
  cardEncryptionKey: string | undefined;
  /** CARD_ENCRYPTION_KEYS_OLD split (decrypt only); empty when unset. */
  cardEncryptionKeysOld: readonly string[];
  /** Bearer token for /metrics (never log it); undefined: loopback only. */
  metricsToken: string | undefined;
  /** SMTP connection URL (holds a password: never log it); undefined: e-mail to the dev outbox. */
  smtpUrl: string | undefined;
  smtpFrom: string;
  smsWebhookUrl: string | undefined;
}>;

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** A value KEY_32 accepted, as its 32 bytes. */
function decodeKey32(text: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
}

/** Empty strings count as unset, as most process managers cannot unset a variable. */
function withoutEmpty(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

function parseTrustProxy(value: string): Config['trustProxy'] {
  const v = value.trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false' || v === '') return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return (_address, hop) => hop < hops;
  }
  return value
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
}

function foreignAuth(c: z.infer<typeof ConfigSchema>): Config['transactionService']['auth'] {
  const kind = c.TRANSACTION_SERVICE_AUTH;
  if (kind === 'basic') {
    if (c.TRANSACTION_SERVICE_USERNAME === undefined || c.TRANSACTION_SERVICE_PASSWORD === undefined)
      throw new ConfigError([
        'TRANSACTION_SERVICE_USERNAME and TRANSACTION_SERVICE_PASSWORD: required with TRANSACTION_SERVICE_AUTH=basic',
      ]);
    return { kind, username: c.TRANSACTION_SERVICE_USERNAME, password: c.TRANSACTION_SERVICE_PASSWORD };
  }
  if (kind === 'header') {
    const header = c.TRANSACTION_SERVICE_HEADER;
    if (!header)
      throw new ConfigError(['TRANSACTION_SERVICE_HEADER: required with TRANSACTION_SERVICE_AUTH=header']);
    const colon = header.indexOf(':');
    return { kind, name: header.slice(0, colon).trim(), value: header.slice(colon + 1).trim() };
  }
  return kind === 'none' ? { kind } : { kind: 'service' };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  const c = parsed.data;
  const publicUrl = (
    c.PUBLIC_URL ?? `http://${c.HOST.includes(':') ? `[${c.HOST}]` : c.HOST}:${c.PORT}`
  ).replace(/\/+$/, '');
  return Object.freeze({
    env: c.NODE_ENV,
    demo: c.PAYFRAME_DEMO ?? c.NODE_ENV === 'development',
    port: c.PORT,
    host: c.HOST,
    dataDir: path.resolve(c.DATA_DIR),
    databaseUrl: c.DATABASE_URL,
    logLevel: c.LOG_LEVEL,
    bodyLimit: c.BODY_LIMIT,
    databasePoolSize: c.DATABASE_POOL_SIZE,
    soapNamespace: c.SOAP_NAMESPACE,
    soapHttpBindings: c.SOAP_HTTP_BINDINGS,
    soapHttpGetChanges: c.SOAP_HTTP_GET_CHANGES,
    gatewayServiceKey: c.GATEWAY_SERVICE_KEY,
    transactionServiceUrl: c.TRANSACTION_SERVICE_URL?.replace(/\/+$/, ''),
    transactionServiceTimeoutMs:
      (c.TRANSACTION_SERVICE_TIMEOUT_SECONDS ?? Math.min(15, Math.floor(c.STALE_PAYMENT_SECONDS / 2))) * 1000,
    transactionService: {
      mode: c.TRANSACTION_SERVICE_MODE,
      auth: foreignAuth(c),
      soapVersion: c.TRANSACTION_SERVICE_SOAP_VERSION,
      approvedCodes: c.TRANSACTION_SERVICE_APPROVED_CODES.split(',').map((v) => v.trim()),
    },
    checkoutSecret: c.CHECKOUT_SECRET === undefined ? undefined : decodeKey32(c.CHECKOUT_SECRET),
    checkoutPublicUrl: c.CHECKOUT_PUBLIC_URL?.replace(/\/+$/, '') ?? publicUrl,
    gatewayPublicUrl: (c.GATEWAY_PUBLIC_URL ?? c.TRANSACTION_SERVICE_URL)?.replace(/\/+$/, ''),
    trustProxy: parseTrustProxy(c.TRUST_PROXY),
    sessionTtlMinutes: c.SESSION_TTL_MINUTES,
    dashboardIdleMinutes: c.DASHBOARD_IDLE_MINUTES,
    paysPerMinutePerIp: c.CHECKOUT_PAYS_PER_MINUTE_PER_IP,
    stalePaymentMs: c.STALE_PAYMENT_SECONDS * 1000,
    publicUrl,
    demoPort: c.DEMO_PORT,
    cardEncryptionKey: c.CARD_ENCRYPTION_KEY,
    cardEncryptionKeysOld: (c.CARD_ENCRYPTION_KEYS_OLD ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    metricsToken: c.METRICS_TOKEN,
    smtpUrl: c.SMTP_URL,
    smtpFrom: c.SMTP_FROM,
    smsWebhookUrl: c.SMS_WEBHOOK_URL,
  });
}

/** What `loadEnvFile` did: the file it read, or why it read none. */
export type EnvFileResult =
  { kind: 'loaded'; file: string } | { kind: 'absent'; file: string } | { kind: 'off' };

/**
 * Reads an env file into `env` before the configuration is loaded (the `payframe` command's first
 * step, so `npm start`, `npm run dev` and every command see it). PAYFRAME_ENV_FILE names the file
 * (relative to the working directory); unset, `.env` in the working directory when there is one;
 * `none` reads no file (servers the tests start). A variable already in the environment wins over
 * the file's line (parsed by Node's own `util.parseEnv`, the parser of `node --env-file`). A file
 * named by PAYFRAME_ENV_FILE that does not exist is an error; a missing default `.env` is not.
 */
export function loadEnvFile(
  env: Record<string, string | undefined> = process.env,
  cwd: string = process.cwd(),
): EnvFileResult {
  const named = env['PAYFRAME_ENV_FILE']?.trim();
  if (named === 'none') return { kind: 'off' };
  const file = path.resolve(cwd, named || '.env');
  if (!fs.existsSync(file)) {
    if (named) throw new ConfigError([`PAYFRAME_ENV_FILE: ${file} does not exist (none: read no file)`]);
    return { kind: 'absent', file };
  }
  const parsed = parseEnv(fs.readFileSync(file, 'utf8'));
  for (const [key, value] of Object.entries(parsed)) if (env[key] === undefined) env[key] = value;
  return { kind: 'loaded', file };
}

/** The test database URL, if the environment names one (storage tests run on it as well as PGlite). */
export function testDatabaseUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  return withoutEmpty(env).TEST_DATABASE_URL ?? withoutEmpty(env).DATABASE_URL;
}

/**
 * What `payframe serve --role` runs (server/checkout/README.md, "Split wiring"):
 *   all       gateway and checkout in one process, the checkout on the in-process port;
 *   gateway   the Transaction Service, 3-D Secure pages, users, recurring runner;
 *   checkout  merchant REST, the widget's API and pages, over SOAP to TRANSACTION_SERVICE_URL.
 */
export const ROLES = ['all', 'gateway', 'checkout'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The variables a role needs that are unset, as ConfigError lines; empty when the role can start. */
export function roleProblems(config: Config, role: Role): string[] {
  const problems: string[] = [];
  const need = (ok: unknown, name: string, why: string) => {
    if (!ok) problems.push(`${name}: required with --role ${role} (${why})`);
  };
  if (role === 'checkout') {
    need(config.transactionServiceUrl, 'TRANSACTION_SERVICE_URL', "the gateway's base URL");
    if (config.transactionServiceTimeoutMs >= config.stalePaymentMs) {
      problems.push(
        'TRANSACTION_SERVICE_TIMEOUT_SECONDS: must be less than STALE_PAYMENT_SECONDS (a pay still waiting for its answer would be taken for cut short)',
      );
    }
    // Payframe's gateway is called as `service`; a spec-only service with its own credential is not.
    const ts = config.transactionService;
    if (ts.mode !== 'spec' || ts.auth.kind === 'service')
      need(
        config.gatewayServiceKey,
        'GATEWAY_SERVICE_KEY',
        'the credential the checkout calls the gateway with',
      );
    need(
      config.checkoutSecret,
      'CHECKOUT_SECRET',
      'the key of idempotency fingerprints, the same on every checkout',
    );
  }
  if (role === 'gateway') {
    need(config.gatewayServiceKey, 'GATEWAY_SERVICE_KEY', 'the credential checkout servers call it with');
  }
  return problems;
}

/** Throws a ConfigError naming every variable the role is missing. */
export function assertRoleConfig(config: Config, role: Role): void {
  const problems = roleProblems(config, role);
  if (problems.length > 0) throw new ConfigError(problems);
}
