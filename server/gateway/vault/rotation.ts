/**
 * Card encryption key rotation (docs/deployment.md, "Rotating the card encryption key").
 *
 * Several keys can be configured at once: CARD_ENCRYPTION_KEY encrypts, CARD_ENCRYPTION_KEYS_OLD
 * only decrypt; every ciphertext names its key (`v1.<keyId>.…`), so old ones stay readable.
 * `rotateVaultKeys` (`payframe keys rotate`) re-encrypts what an old key encrypted: stored card
 * numbers, merchants' TransactionKeys and reader keys, and the stored lookup keys. Small batches,
 * each in its own transaction with its rows locked, so servers keep serving meanwhile; rows already
 * under the current key are skipped, so it can be run again at any time. Rows are locked with a
 * plain `for update`, not `skip locked`: a payment holding a merchant's row would otherwise make
 * the batch look empty and end the run early (seen on PostgreSQL).
 */
import type { Database, Queryable } from '../../db/database.ts';
import { type IndexKeys, keyIdOfBlob, VaultKeyError, VaultKeys } from './keys.ts';
import type { Config } from '../../config.ts';

/**
 * The configured keys with the lookup keys stored in the database. On the first start with the
 * `vault_index_keys` table they are derived from the key the stored data was written under (the
 * oldest card's, else the first merchant's, else the current key), exactly what the vault used
 * before, and stored; two instances starting at once meet on the single row.
 */
export async function loadVaultKeys(
  config: Pick<Config, 'cardEncryptionKey' | 'cardEncryptionKeysOld' | 'dataDir'>,
  db: Queryable,
): Promise<VaultKeys> {
  const keys = VaultKeys.fromConfig(config);
  const stored = await storedIndex(db);
  if (stored) return keys.withIndex(keys.openIndexKeys(stored));

  const origin = (await originKeyId(db)) ?? keys.keyId;
  const master = keys.masterOf(origin);
  if (!master) {
    throw new VaultKeyError(
      `The stored cards were encrypted under key ${origin}, which is not configured: set it as ` +
        'CARD_ENCRYPTION_KEY or add it to CARD_ENCRYPTION_KEYS_OLD.',
    );
  }
  const index: IndexKeys = VaultKeys.deriveIndexKeys(master);
  await db.query(`insert into vault_index_keys (id, keys_enc) values (1, $1) on conflict (id) do nothing`, [
    keys.sealIndexKeys(index),
  ]);
  const winner = await storedIndex(db);
  if (!winner) throw new Error('vault_index_keys is empty right after it was written.');
  return keys.withIndex(keys.openIndexKeys(winner));
}

async function storedIndex(db: Queryable): Promise<string | null> {
  const { rows } = await db.query<{ keys_enc: string }>('select keys_enc from vault_index_keys where id = 1');
  return rows[0]?.keys_enc ?? null;
}

async function originKeyId(db: Queryable): Promise<string | null> {
  const card = await db.query<{ key_id: string }>('select key_id from cards order by created_at, id limit 1');
  if (card.rows[0]) return card.rows[0].key_id;
  const merchant = await db.query<{ k: string }>(
    'select transaction_key_enc as k from merchants order by id limit 1',
  );
  return merchant.rows[0] ? keyIdOfBlob(merchant.rows[0].k) : null;
}

export interface RotationCounts {
  /** Rows re-encrypted under the current key by this run. */
  rotated: number;
  /** Rows still under another key after the run (written meanwhile by an instance on an old key). */
  remaining: number;
}

export interface RotationReport {
  keyId: string;
  cards: RotationCounts;
  merchants: RotationCounts;
  indexKeys: RotationCounts;
}

export interface RotationOptions {
  /** Rows per transaction. */
  batchSize?: number;
  /** Called after each committed batch (progress output). */
  onBatch?: (table: string, rows: number) => void;
}

/** Re-encrypts everything an old key encrypted under the current one; see the module comment. */
export async function rotateVaultKeys(
  db: Database,
  keys: VaultKeys,
  { batchSize = 200, onBatch }: RotationOptions = {},
): Promise<RotationReport> {
  const current = keys.keyId;
  const notCurrent = `v1.${current}.%`;

  const cards = await inBatches(db, batchSize, 'cards', onBatch, async (tx) => {
    const { rows } = await tx.query<{ id: string; pan_enc: string }>(
      `select id, pan_enc from cards where key_id <> $1 order by id limit $2 for update`,
      [current, batchSize],
    );
    for (const row of rows) {
      const pan = keys.decryptPan(row.pan_enc, row.id);
      await tx.query('update cards set pan_enc = $2, key_id = $3 where id = $1', [
        row.id,
        keys.encryptPan(pan, row.id),
        current,
      ]);
    }
    return rows.length;
  });

  const merchants = await inBatches(db, batchSize, 'merchants', onBatch, async (tx) => {
    const { rows } = await tx.query<{ id: string; t: string; r: string }>(
      `select id, transaction_key_enc as t, reader_key_enc as r from merchants
       where transaction_key_enc not like $1 or reader_key_enc not like $1
       order by id limit $2 for update`,
      [notCurrent, batchSize],
    );
    for (const row of rows) {
      await tx.query('update merchants set transaction_key_enc = $2, reader_key_enc = $3 where id = $1', [
        row.id,
        keys.encryptSecret(keys.decryptSecret(row.t)),
        keys.encryptSecret(keys.decryptSecret(row.r)),
      ]);
    }
    return rows.length;
  });

  const indexKeys = await inBatches(db, batchSize, 'vault_index_keys', onBatch, async (tx) => {
    const { rows } = await tx.query<{ keys_enc: string }>(
      `select keys_enc from vault_index_keys where id = 1 and keys_enc not like $1 for update`,
      [notCurrent],
    );
    if (!rows[0]) return 0;
    await tx.query('update vault_index_keys set keys_enc = $1 where id = 1', [
      keys.sealIndexKeys(keys.openIndexKeys(rows[0].keys_enc)),
    ]);
    return 1;
  });

  const remaining = async (sql: string, params: unknown[]) =>
    Number((await db.query<{ n: number }>(sql, params)).rows[0]?.n ?? 0);
  return {
    keyId: current,
    cards: {
      rotated: cards,
      remaining: await remaining('select count(*)::int as n from cards where key_id <> $1', [current]),
    },
    merchants: {
      rotated: merchants,
      remaining: await remaining(
        'select count(*)::int as n from merchants where transaction_key_enc not like $1 or reader_key_enc not like $1',
        [notCurrent],
      ),
    },
    indexKeys: {
      rotated: indexKeys,
      remaining: await remaining(
        'select count(*)::int as n from vault_index_keys where keys_enc not like $1',
        [notCurrent],
      ),
    },
  };
}

/** Runs `batch` in its own transaction until it finds nothing to do; the number of rows done. */
async function inBatches(
  db: Database,
  batchSize: number,
  table: string,
  onBatch: RotationOptions['onBatch'],
  batch: (tx: Queryable) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db.transaction(batch);
    if (n === 0) return total;
    total += n;
    onBatch?.(table, n);
    if (n < batchSize) return total;
  }
}
