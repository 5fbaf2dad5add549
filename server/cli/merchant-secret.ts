/**
 * `payframe merchant secret set|list|remove` (issue 20): the merchants a checkout in spec mode serves
 * (server/checkout/spec-merchants.ts, migration 0035). A Transaction Service that speaks only the
 * spec keeps its TransactionKeys to itself, so the checkout holds, per merchant, the name the
 * service answers as MerchantName, the origins that may embed its checkout and the secret its
 * redirects are signed with — encrypted under CHECKOUT_SECRET, so `set` needs the checkout's
 * CHECKOUT_SECRET in its environment.
 *
 * The commands act on the checkout's own database (DATA_DIR or DATABASE_URL). The checkout reads the
 * table on every session (no cache), so a change takes effect at once while it runs: on PostgreSQL
 * the command writes it directly; on PGlite, while the checkout holds DATA_DIR, the command is handed
 * to it (handoff-server.ts; a checkout-only server runs these commands and no others) and runs under
 * the server's configuration, its CHECKOUT_SECRET included.
 *
 * The secret is printed once, when the command generated it; never logged, never listed.
 */
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  listSpecMerchants,
  removeSpecMerchant,
  setSpecMerchant,
  specMerchantById,
  specMerchantProblem,
  specSecretBox,
} from '../checkout/spec-merchants.ts';
import { closeCommandDatabase, commandConfig, commandStdin, openCommandDatabase } from './command-context.ts';
import { CliError, type Output } from './output.ts';

export const MERCHANT_SECRET_USAGE =
  'Usage: payframe merchant secret set --merchant <id> --name <MerchantName> [--origin <url>]... ' +
  '[--secret-stdin] [--json] | payframe merchant secret list [--json] | ' +
  'payframe merchant secret remove --merchant <id> [--json]';

/** 32 random bytes as hex: what `set` generates when no secret comes on standard input. */
const GENERATED_SECRET_BYTES = 32;

function usageError(message: string): CliError {
  return new CliError('invalid_arguments', `${message} ${MERCHANT_SECRET_USAGE}`, 2);
}

const originsText = (origins: string[]) => (origins.length ? origins.join(', ') : '(none)');

/** `merchant secret set`: adds the merchant's entry or replaces it (name, origins and secret). */
async function secretSet(args: string[], out: Output): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      json: { type: 'boolean' },
      merchant: { type: 'string' },
      name: { type: 'string' },
      origin: { type: 'string', multiple: true },
      // A secret of the merchant's own (its TransactionKey, say) never goes on the command line,
      // where `ps` and shell history would show it.
      'secret-stdin': { type: 'boolean' },
    },
  });
  if (!values.merchant || values.name === undefined) throw usageError('--merchant and --name are required.');
  const config = commandConfig();
  if (!config.checkoutSecret) {
    throw usageError(
      "CHECKOUT_SECRET is not set: the redirect secret is stored encrypted under it. Run the command with the checkout's CHECKOUT_SECRET.",
    );
  }
  const generated = !values['secret-stdin'];
  const secret = generated
    ? crypto.randomBytes(GENERATED_SECRET_BYTES).toString('hex')
    : (await commandStdin()).trim();
  const entry = { id: values.merchant, name: values.name, origins: values.origin ?? [], secret };
  const problem = specMerchantProblem(entry);
  if (problem) throw new CliError('validation_failed', problem); // before opening the database

  const db = await openCommandDatabase(config);
  try {
    // The name finds the merchant (a unique index): say who holds it rather than the index's name.
    const { rows } = await db.query<{ merchant_id: string }>(
      'select merchant_id::text as merchant_id from checkout_spec_merchants where name = $1 and merchant_id <> $2',
      [entry.name.trim(), entry.id],
    );
    if (rows[0]) {
      throw new CliError(
        'name_taken',
        `Merchant ${rows[0].merchant_id} already answers as '${entry.name.trim()}': each name finds one merchant.`,
      );
    }
    const replaced = (await specMerchantById(db, entry.id)) !== null;
    await setSpecMerchant(db, specSecretBox(config.checkoutSecret), entry, new Date());
    const name = entry.name.trim();
    out.result(
      {
        merchantId: entry.id,
        name,
        origins: entry.origins,
        replaced,
        ...(generated ? { secret } : {}),
      },
      [
        `Merchant ${entry.id} ${replaced ? 'replaced' : 'added'} for spec mode: ${name}`,
        `Origins: ${originsText(entry.origins)}`,
        ...(generated
          ? [
              `Redirect secret: ${secret}`,
              '(Shown once. Give it to the merchant to check the signatures of its redirects; it is stored encrypted and never shown again.)',
            ]
          : ['Redirect secret: the one read from standard input (stored encrypted).']),
      ],
    );
  } finally {
    await closeCommandDatabase(db);
  }
}

/** `merchant secret list`: every entry's id, name and origins; never a secret. */
async function secretList(args: string[], out: Output): Promise<void> {
  parseArgs({ args, strict: true, options: { json: { type: 'boolean' } } });
  const db = await openCommandDatabase(commandConfig());
  try {
    const merchants = (await listSpecMerchants(db)).map((m) => ({
      merchantId: m.id,
      name: m.name,
      origins: m.origins,
    }));
    out.result(
      { merchants },
      merchants.length === 0
        ? ['No merchants for spec mode.']
        : merchants.map((m) => `${m.merchantId}  ${m.name}  origins: ${originsText(m.origins)}`),
    );
  } finally {
    await closeCommandDatabase(db);
  }
}

/** `merchant secret remove`: the checkout stops serving the merchant in spec mode. */
async function secretRemove(args: string[], out: Output): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { json: { type: 'boolean' }, merchant: { type: 'string' } },
  });
  if (!values.merchant) throw usageError('--merchant is required.');
  const id = values.merchant;
  if (!/^\d{1,18}$/.test(id)) throw new CliError('not_found', `No spec-mode entry for merchant ${id}.`);
  const db = await openCommandDatabase(commandConfig());
  try {
    if (!(await removeSpecMerchant(db, id)))
      throw new CliError('not_found', `No spec-mode entry for merchant ${id}.`);
    out.result({ merchantId: id, removed: true }, [`Merchant ${id} removed from spec mode.`]);
  } finally {
    await closeCommandDatabase(db);
  }
}

export async function merchantSecret(args: string[], out: Output): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'set') return secretSet(rest, out);
  if (sub === 'list') return secretList(rest, out);
  if (sub === 'remove') return secretRemove(rest, out);
  throw new CliError('invalid_arguments', MERCHANT_SECRET_USAGE, 2);
}
