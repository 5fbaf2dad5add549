/**
 * Configuration, read from the environment once, validated with zod (STYLE.md §6).
 * Nothing else in the project reads `process.env`; `.env.example` documents every variable.
 */
import path from 'node:path';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const port = z.coerce.number().int().min(0).max(65535);

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
  /** Size of the `pg` pool when DATABASE_URL is set. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
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
  });
}

/** The test database URL, if the environment names one (storage tests run on it as well as PGlite). */
export function testDatabaseUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  return withoutEmpty(env).TEST_DATABASE_URL ?? withoutEmpty(env).DATABASE_URL;
}
