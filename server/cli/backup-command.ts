/**
 * `payframe backup --to FILE` and `payframe restore --from FILE`: copies of the embedded database
 * (docs/deployment.md "Backups of the embedded database").
 *
 * A backup is a consistent snapshot of the PGlite data directory (`Database.backupCopy`: taken
 * between transactions after a checkpoint), a tar gzip'd once statements run again, written to
 * a partial file (0600) and renamed into place once it is on disk. While a server runs on DATA_DIR the command is handed to it
 * (handoff-client.ts) and the server writes FILE: payments wait only while the snapshot is taken.
 *
 * The card encryption key is not in the backup (PCI DSS 3.6: keys apart from the data they
 * protect): restore needs it beside — DATA_DIR/card-encryption.key or CARD_ENCRYPTION_KEY, with
 * CARD_ENCRYPTION_KEYS_OLD for older ones — and checks that it opens the vault before it succeeds;
 * a failed restore removes the database it wrote.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import zlib from 'node:zlib';
import { type Config, loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { DataDirLockedError, pgliteDirectory, restorePglite } from '../db/pglite.ts';
import { KEY_FILE_NAME } from '../gateway/vault/keys.ts';
import { loadVaultKeys } from '../gateway/vault/rotation.ts';
import { closeCommandDatabase, commandConfig, openCommandDatabase } from './command-context.ts';
import { CliError, type Output } from './output.ts';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

const BACKUP_USAGE = 'Usage: payframe backup --to <file> [--force] [--json]';
const RESTORE_USAGE = 'Usage: payframe restore --from <file> [--json]';

function embeddedOnly(config: Config, what: string): void {
  if (config.databaseUrl) {
    throw new CliError(
      'not_supported',
      `payframe ${what} is for the embedded database. On PostgreSQL use its own tools (pg_dump, or the managed service's backups and point-in-time recovery): docs/deployment.md "Backups".`,
    );
  }
}

/**
 * The command line with `--to`'s file made absolute: a command handed to a running server runs in
 * that server's working directory, not the shell's.
 */
export function withAbsoluteTarget(argv: readonly string[], cwd = process.cwd()): string[] {
  return argv.map((arg, i) => {
    if (arg.startsWith('--to=')) return `--to=${path.resolve(cwd, arg.slice('--to='.length))}`;
    if (argv[i - 1] === '--to' && arg !== '') return path.resolve(cwd, arg);
    return arg;
  });
}

/**
 * Writes `data` to `file` whole or not at all: a partial file of its own beside it (0600), written
 * to the end and fsynced, renamed into place, and the directory fsynced so the rename survives a
 * power cut. Asynchronous: a server the command was handed to keeps serving meanwhile.
 */
async function writeWhole(file: string, data: Uint8Array, force: boolean): Promise<void> {
  const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.partial`;
  try {
    const handle = await fsp.open(partial, 'wx', 0o600);
    try {
      await handle.chmod(0o600);
      await handle.writeFile(data); // loops until every byte is written
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (!force && fs.existsSync(file)) {
      throw new CliError(
        'file_exists',
        `${file} exists: choose another file, or pass --force to replace it.`,
      );
    }
    await fsp.rename(partial, file);
  } catch (err) {
    await fsp.rm(partial, { force: true });
    throw err;
  }
  const dir = await fsp.open(path.dirname(file), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

export async function backupCommand(args: string[], out: Output): Promise<undefined> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      to: { type: 'string' },
      force: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  if (!values.to) throw new CliError('invalid_arguments', BACKUP_USAGE, 2);
  const file = path.resolve(values.to);
  const config = commandConfig();
  embeddedOnly(config, 'backup');
  if (!values.force && fs.existsSync(file)) {
    throw new CliError('file_exists', `${file} exists: choose another file, or pass --force to replace it.`);
  }
  if (!fs.existsSync(path.dirname(file))) {
    throw new CliError('invalid_arguments', `${path.dirname(file)} does not exist.`, 2);
  }
  const db = await openCommandDatabase(config);
  try {
    if (!db.backupCopy) throw new CliError('not_supported', 'This database cannot be copied by Payframe.');
    const started = performance.now();
    const tar = await db.backupCopy();
    const snapshotMs = Math.round(performance.now() - started);
    // Compressed once statements run again, on libuv's threads.
    const backup = await gzip(new Uint8Array(await tar.arrayBuffer()));
    await writeWhole(file, backup, values.force ?? false);
    out.result({ file, bytes: backup.byteLength, snapshotMs }, [
      `Backup written: ${file} (${backup.byteLength} bytes; statements waited ${snapshotMs} ms for the snapshot)`,
      `The card encryption key is not in it: keep ${path.join(config.dataDir, KEY_FILE_NAME)} (or CARD_ENCRYPTION_KEY) safe, apart from the backups.`,
    ]);
  } finally {
    await closeCommandDatabase(db);
  }
  return undefined;
}

/** What a restore checks: the key opens the vault (its lookup keys, a merchant's key, a card). */
async function checkVault(config: Config, db: Database): Promise<{ merchants: number; cards: number }> {
  const keys = await loadVaultKeys(config, db);
  const merchant = await db.query<{ k: string }>(
    'select transaction_key_enc as k from merchants order by id limit 1',
  );
  if (merchant.rows[0]) keys.decryptSecret(merchant.rows[0].k);
  const card = await db.query<{ id: string; pan_enc: string }>(
    'select id, pan_enc from cards order by created_at desc limit 1',
  );
  if (card.rows[0]) keys.decryptPan(card.rows[0].pan_enc, card.rows[0].id);
  const counts = await db.query<{ merchants: string; cards: string }>(
    'select (select count(*) from merchants) as merchants, (select count(*) from cards) as cards',
  );
  return { merchants: Number(counts.rows[0]!.merchants), cards: Number(counts.rows[0]!.cards) };
}

export async function restoreCommand(args: string[], out: Output): Promise<undefined> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      from: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (!values.from) throw new CliError('invalid_arguments', RESTORE_USAGE, 2);
  const file = path.resolve(values.from);
  const config = loadConfig();
  embeddedOnly(config, 'restore');
  if (fs.existsSync(path.join(pgliteDirectory(config.dataDir), 'PG_VERSION'))) {
    throw new CliError(
      'data_dir_not_empty',
      `${config.dataDir} already holds a database: restore into an empty DATA_DIR (stop the server and move the old one aside first).`,
    );
  }
  const keyFile = path.join(config.dataDir, KEY_FILE_NAME);
  if (!config.cardEncryptionKey && !fs.existsSync(keyFile)) {
    throw new CliError(
      'missing_key',
      `The card encryption key is not in the backup: put the key file at ${keyFile} (mode 0600) or set CARD_ENCRYPTION_KEY, then restore.`,
    );
  }
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (err) {
    throw new CliError('invalid_arguments', `Cannot read ${file}: ${(err as Error).message}`, 2);
  }
  try {
    data = await gunzip(data);
  } catch {
    throw new CliError('invalid_backup', `${file} is not a Payframe backup (not gzip).`);
  }
  let db: Database | null = null;
  try {
    db = await restorePglite(config.dataDir, new Blob([new Uint8Array(data)]));
    const applied = await migrate(db);
    const found = await checkVault(config, db);
    const transactions = await db.query<{ n: string }>('select count(*) as n from transactions');
    await db.close();
    db = null;
    const report = { from: file, dataDir: config.dataDir, migrations: applied.length, ...found };
    out.result({ ...report, transactions: Number(transactions.rows[0]!.n) }, [
      `Restored ${file} into ${config.dataDir}`,
      `Merchants: ${found.merchants}, stored cards: ${found.cards}, transactions: ${transactions.rows[0]!.n}`,
      'The card encryption key opens the vault. Start the server on this DATA_DIR.',
    ]);
  } catch (err) {
    // Only what this restore loaded is removed (restorePglite removes a load that failed half-way);
    // a DATA_DIR another process holds is left alone.
    if (db) {
      await db.close().catch(() => {});
      fs.rmSync(pgliteDirectory(config.dataDir), { recursive: true, force: true });
    }
    if (err instanceof CliError || err instanceof DataDirLockedError) throw err;
    throw new CliError(
      'restore_failed',
      `Restore failed, nothing was kept: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return undefined;
}
