/**
 * `payframe keys rotate`: re-encrypts what earlier card encryption keys encrypted under the current
 * CARD_ENCRYPTION_KEY (gateway/vault/rotation.ts). Safe while servers run and safe to run again. On
 * PGlite while a server runs it is handed to that server and runs under the server's configuration
 * (its CARD_ENCRYPTION_KEY, not this shell's: restart the server with the new key first).
 */
import { parseArgs } from 'node:util';
import { loadVaultKeys, rotateVaultKeys } from '../gateway/vault/rotation.ts';
import { closeCommandDatabase, commandConfig, openCommandDatabase } from './command-context.ts';
import { CliError, type Output } from './output.ts';

const USAGE = 'Usage: payframe keys rotate [--batch-size <rows>] [--json]';

export async function keysCommand(args: string[], out: Output): Promise<undefined> {
  const [sub, ...rest] = args;
  if (sub !== 'rotate') throw new CliError('invalid_arguments', USAGE, 2);
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: { json: { type: 'boolean' }, 'batch-size': { type: 'string', default: '200' } },
  });
  const batchSize = Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
    throw new CliError('invalid_arguments', '--batch-size must be a whole number from 1 to 10000.', 2);
  }
  const config = commandConfig();
  if (!config.cardEncryptionKey) {
    throw new CliError(
      'invalid_config',
      'Set CARD_ENCRYPTION_KEY to the new key (and CARD_ENCRYPTION_KEYS_OLD to the earlier ones) before rotating.',
    );
  }
  const db = await openCommandDatabase(config);
  try {
    const keys = await loadVaultKeys(config, db);
    const report = await rotateVaultKeys(db, keys, { batchSize });
    const left = report.cards.remaining + report.merchants.remaining + report.indexKeys.remaining;
    out.result(report, [
      `Current key: ${report.keyId}`,
      `Cards re-encrypted: ${report.cards.rotated} (left under other keys: ${report.cards.remaining})`,
      `Merchants re-encrypted: ${report.merchants.rotated} (left: ${report.merchants.remaining})`,
      `Lookup keys re-encrypted: ${report.indexKeys.rotated} (left: ${report.indexKeys.remaining})`,
      left === 0
        ? 'Nothing is encrypted under an earlier key: CARD_ENCRYPTION_KEYS_OLD can be emptied once every instance runs with the current key.'
        : 'Some rows were written under an earlier key meanwhile (an instance not yet on the current key?): run again.',
    ]);
  } finally {
    await closeCommandDatabase(db);
  }
  return undefined;
}
