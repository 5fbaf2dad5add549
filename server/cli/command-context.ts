/**
 * Where an operator command's database comes from. One implementation of each command
 * (gateway-commands.ts, merchant-update.ts, keys-command.ts) runs in two places:
 *
 *   directly    the `payframe` process loads its configuration, opens the database (PGlite takes
 *               DATA_DIR's lock), runs the command and closes it — as always;
 *   served      a running `payframe serve` on PGlite was handed the command over its command channel
 *               (handoff-server.ts): the command runs inside that server, on the server's
 *               configuration, open database and gateway (so its merchant cache forgets what the
 *               command changed), and closing it (closeCommandDatabase) leaves it open.
 *
 * A checkout-only server (`--role checkout`) lends no gateway: it keeps no merchants of the
 * gateway's, so handed to it only `merchant secret` runs (its spec-mode merchants; handoff-server.ts
 * refuses the rest), and a command that asks it for a gateway fails (commandGateway).
 *
 * The served case is carried by an AsyncLocalStorage, so several handed-off commands can run at
 * once and the commands themselves need no parameter for it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/index.ts';
import { type Gateway, openGateway } from '../gateway/index.ts';
import { commandSocketPath } from './handoff-protocol.ts';
import { CliError } from './output.ts';

/** What a server lends a command handed to it. */
export interface ServedContext {
  config: Config;
  db: Database;
  /** The server's gateway (roles `all` and `gateway`); null in a checkout-only server. */
  gateway: Gateway | null;
  /** The CLI's standard input up to its end (asked of the CLI when a command reads it). */
  readStdin(): Promise<string>;
}

const served = new AsyncLocalStorage<ServedContext>();

/** Runs `fn` as a command handed to this server. */
export function runServed<T>(context: ServedContext, fn: () => Promise<T>): Promise<T> {
  return served.run(context, fn);
}

/** The configuration the command runs under: the server's when served, else the environment's. */
export function commandConfig(): Config {
  return served.getStore()?.config ?? loadConfig();
}

/**
 * The command's database: the server's own when served (the very object, so the gateway's merchant
 * cache, which follows one database, sees the command's reads and writes as the server's); else the
 * configured database opened (and migrated) here. Opened here on PGlite, this process holds
 * DATA_DIR's lock, so no server is listening on the command socket: one left by a server killed with
 * SIGKILL is removed. Commands end with closeCommandDatabase, never `db.close()`.
 */
export async function openCommandDatabase(config: Config): Promise<Database> {
  const context = served.getStore();
  if (context) return context.db;
  const db = await openDatabase(config);
  if (db.kind === 'pglite') removeStaleSocket(config.dataDir);
  return db;
}

/** Closes what openCommandDatabase opened; the server's database stays open. */
export async function closeCommandDatabase(db: Database): Promise<void> {
  if (served.getStore()?.db === db) return;
  await db.close();
}

/**
 * The gateway the command works through: the server's own when served, else one opened on the
 * configured database. A checkout-only server has none to lend (its database is not the gateway's).
 */
export async function commandGateway(config: Config, db: Database): Promise<Gateway> {
  const context = served.getStore();
  if (!context) return openGateway(config, db);
  if (!context.gateway) throw checkoutOnlyError();
  return context.gateway;
}

/** What a command on the gateway's data answers when handed to a checkout-only server. */
export function checkoutOnlyError(): CliError {
  return new CliError(
    'checkout_only',
    "The server on this DATA_DIR is a checkout (--role checkout): it runs only 'merchant secret'. Run the command with the gateway's DATA_DIR or DATABASE_URL.",
  );
}

/** Standard input to its end: this process's, or the CLI's that handed the command over. */
export async function commandStdin(): Promise<string> {
  const context = served.getStore();
  if (context) return context.readStdin();
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Removes DATA_DIR's command socket if it is one of this user's (call only while holding the lock). */
export function removeStaleSocket(dataDir: string): boolean {
  const socket = commandSocketPath(dataDir);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(socket);
  } catch {
    return false;
  }
  if (!stat.isSocket() || stat.uid !== process.getuid?.()) return false;
  fs.rmSync(socket, { force: true });
  return true;
}
