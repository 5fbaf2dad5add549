/**
 * Configuration, read from the environment once, validated with zod (STYLE.md §6).
 * Nothing else in the project reads `process.env`; `.env.example` documents every variable.
 */
import path from 'node:path';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const port = z.coerce.number().int().min(0).max(65535);

/** 32 bytes written as 64 hex digits or as base64 (standard or URL-safe); the key itself is never echoed. */
const KEY_32 = /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/;

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
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
  /** The checkout server's credential for the gateway (HTTP Basic `service:<key>`); unset: in-process only. */
  GATEWAY_SERVICE_KEY: z.string().min(24, 'must be at least 24 characters').optional(),
  /** Minutes a checkout session stays payable. */
  SESSION_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(60),
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
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  bodyLimit: number;
  databasePoolSize: number;
  soapNamespace: string;
  soapHttpBindings: boolean;
  gatewayServiceKey: string | undefined;
  /** false, true, a hop count (trust that many proxies in front), or proxy addresses/CIDRs. */
  trustProxy: boolean | ((address: string, hop: number) => boolean) | string[];
  sessionTtlMinutes: number;
  publicUrl: string;
  demoPort: number;
  /** The card vault's key as configured (hex or base64), or undefined to use the key file. */
  cardEncryptionKey: string | undefined;
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

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  const c = parsed.data;
  return Object.freeze({
    env: c.NODE_ENV,
    port: c.PORT,
    host: c.HOST,
    dataDir: path.resolve(c.DATA_DIR),
    databaseUrl: c.DATABASE_URL,
    logLevel: c.LOG_LEVEL,
    bodyLimit: c.BODY_LIMIT,
    databasePoolSize: c.DATABASE_POOL_SIZE,
    soapNamespace: c.SOAP_NAMESPACE,
    soapHttpBindings: c.SOAP_HTTP_BINDINGS,
    gatewayServiceKey: c.GATEWAY_SERVICE_KEY,
    trustProxy: parseTrustProxy(c.TRUST_PROXY),
    sessionTtlMinutes: c.SESSION_TTL_MINUTES,
    publicUrl: (c.PUBLIC_URL ?? `http://${c.HOST.includes(':') ? `[${c.HOST}]` : c.HOST}:${c.PORT}`).replace(
      /\/+$/,
      '',
    ),
    demoPort: c.DEMO_PORT,
    cardEncryptionKey: c.CARD_ENCRYPTION_KEY,
    smtpUrl: c.SMTP_URL,
    smtpFrom: c.SMTP_FROM,
    smsWebhookUrl: c.SMS_WEBHOOK_URL,
  });
}

/** The test database URL, if the environment names one (storage tests run on it as well as PGlite). */
export function testDatabaseUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  return withoutEmpty(env).TEST_DATABASE_URL ?? withoutEmpty(env).DATABASE_URL;
}
