/**
 * `payframe` — the operator's command. Every command accepts --json for scripts.
 *
 *   payframe serve            start the server (what `npm start` runs); --role all|gateway|checkout,
 *                             --spec-only (role gateway: the spec's 21 operations only)
 *   payframe migrate          apply database migrations (each named, then the version) and exit
 *   payframe merchant create  create a merchant (id + TransactionKey); update, list, roll-key, disable, enable
 *   payframe merchant secret  a spec-mode checkout's merchants (name, origins, redirect secret): set, list, remove
 *   payframe session create   create a checkout session (token + URL)
 *   payframe user create      create a merchant user (Login), password from standard input
 *   payframe keys rotate      re-encrypt stored secrets under the current CARD_ENCRYPTION_KEY
 *   payframe backup / restore copy the embedded database to a file, and back into an empty DATA_DIR
 *   payframe help             this text
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isRole, loadConfig, loadEnvFile, ROLES } from '../config.ts';
import { describeDatabase, openDatabase } from '../db/index.ts';
import { listMigrations } from '../db/migrate.ts';
import { createLogger } from '../logger.ts';
import { closeOnSignals, startServer } from '../server.ts';
import { restoreCommand, withAbsoluteTarget } from './backup-command.ts';
import { type Command, DATA_COMMANDS, describeFailure, exitCodeOf, isDataCommand } from './dispatch.ts';
import { handOff } from './handoff-client.ts';
import { openCommandChannel } from './handoff-server.ts';
import { CliError, createOutput } from './output.ts';

export const HELP = `Usage: payframe <command> [options]

Commands:
  serve [--role all|gateway|checkout] [--spec-only]
              Start Payframe (configuration from the environment, and from .env in the
              working directory under it: PAYFRAME_ENV_FILE names another file, none none;
              see .env.example). In development (the default NODE_ENV) also the demo: a
              merchant with a dashboard user, and the demo store (PAYFRAME_DEMO=1 anywhere).
              all (default): everything in one process. gateway: the Transaction Service,
              3-D Secure pages, users, recurring payments. checkout: merchant REST, the
              widget's API and pages, calling the gateway at TRANSACTION_SERVICE_URL (needs
              GATEWAY_SERVICE_KEY and CHECKOUT_SECRET). See server/checkout/README.md.
              --spec-only (with --role gateway only): the Transaction Service offers the
              spec's 21 operations and no Payframe extension (WSDL, help pages, calls)
  migrate     Apply pending database migrations, name each one applied and the version, exit
  merchant create --name <name> [--origin <url>]... [--3ds] [--business-name <name>]
                  [--logo-url <url>] [--website <url>] [--email <address>] [--phone <number>]
                  [--methods card,ach]
              Create a merchant; prints its id and TransactionKey (shown once). --origin: a page
              origin that may embed the checkout and receive the redirect (repeat for several)
  merchant update --merchant <id> [--origin <url>]... [--website <url>] [--logo-url <url>]
                  [--business-name <name>] [--email <address>] [--phone <number>]
                  [--methods card,ach] [--3ds|--no-3ds] [--return-mode immediate|confirmation]
                  [--name-on-card|--no-name-on-card] [--brand-color #RRGGBB]
                  [--corner-radius <0-24>] [--terms-url <url>] [--privacy-url <url>]
                  [--postal-code|--no-postal-code] [--receipt-email|--no-receipt-email]
              Change a merchant: --origin replaces the whole list of registered origins; an
              empty value ("") clears website, logo, e-mail or phone. Values are checked as
              for create. Checkout settings: --return-mode, after a successful payment the
              hosted page goes back to the ReturnUrl at once (immediate, the default) or shows
              the receipt until the shopper returns (confirmation); --name-on-card, the card
              form asks for the name on the card (off by default). Branding of the hosted
              page: --brand-color and --corner-radius (pixels); "" goes back to the default.
              --terms-url, --privacy-url: https links in the payment page's footer ("" removes);
              --postal-code, the card form asks for the billing postal code and the address is
              checked (off by default); --receipt-email, the shopper gets a receipt e-mail after
              paying (on by default)
  merchant list
              List the merchants: id, name, registered origins, disabled or not
  merchant roll-key --merchant <id>
              Replace a merchant's TransactionKey (the old one stops working; the new one is shown once)
  merchant disable|enable --merchant <id>
              Refuse (or accept again) a merchant's credential
  merchant secret set --merchant <id> --name <MerchantName> [--origin <url>]... [--secret-stdin]
              A checkout in spec mode (its service speaks only the spec): add or replace the
              merchant's entry on the checkout's database: the name GetHostedPaymentDetails
              answers as MerchantName, the origins that may embed its checkout (--origin replaces
              the list), and the secret its redirects are signed with, stored encrypted under
              CHECKOUT_SECRET (required). Without --secret-stdin a secret is generated and shown
              once, to give to the merchant; --secret-stdin reads it from standard input (the
              merchant's TransactionKey, say)
  merchant secret list
              The checkout's spec-mode merchants: id, name, origins (never a secret)
  merchant secret remove --merchant <id>
              Stop serving a merchant in spec mode
  session create --merchant <id> --amount <10.50> [--currency <USD>] [--return-url <url>]
                  [--webhook-url <url>] [--order <no>] [--email <address>] [--phone <number>]
                  [--first-name <name>] [--last-name <name>] [--locale <tag>]
              Create a checkout session; prints its token and URL
  user create --merchant <id> --username <name> --password-stdin [--email <address>]
              [--role owner|admin|staff|viewer]
              Create a merchant user who can sign in (Login), an owner unless --role says otherwise;
              reads the password from standard input
  keys rotate [--batch-size <rows>]
              Re-encrypt stored cards and merchant keys under CARD_ENCRYPTION_KEY (earlier keys
              in CARD_ENCRYPTION_KEYS_OLD); safe while servers run, safe to run again
  backup --to <file> [--force]
              Copy the embedded database (PGlite) to a file while it runs: a consistent snapshot;
              the card encryption key is not in it (keep DATA_DIR/card-encryption.key apart)
  restore --from <file>
              Load a backup into an empty DATA_DIR; needs the card encryption key beside
              (DATA_DIR/card-encryption.key or CARD_ENCRYPTION_KEY) and checks that it opens the vault
  help        Show this help

While \`npm start\` runs on the embedded database (PGlite), merchant, session, user, keys and backup
commands are handed to that server over DATA_DIR/cli.sock and run there, under its configuration.
A checkout-only server (--role checkout) on PGlite takes merchant secret commands the same way, and
no others. On PostgreSQL every command opens the database itself, while servers run.

Options:
  --json      Print results and errors as JSON
  -h, --help  Show this help
`;

const commands: Record<string, Command> = {
  ...DATA_COMMANDS,
  restore: restoreCommand,
  async serve(args, out) {
    const { values } = parseArgs({
      args,
      options: {
        json: { type: 'boolean' },
        role: { type: 'string', default: 'all' },
        'spec-only': { type: 'boolean', default: false },
      },
      strict: true,
    });
    const role = values.role;
    if (!isRole(role)) {
      throw new CliError(
        'invalid_arguments',
        `--role must be one of ${ROLES.join(', ')} (got '${role}').`,
        2,
      );
    }
    const specOnly = values['spec-only'];
    // Roles all and checkout hold a checkout that calls Payframe's extensions: no spec-only service.
    if (specOnly && role !== 'gateway') {
      throw new CliError(
        'invalid_arguments',
        `--spec-only is for --role gateway only (got --role ${role}).`,
        2,
      );
    }
    const config = loadConfig();
    const logger = createLogger({ level: config.logLevel });
    const server = await startServer(config, logger, role, {
      commandChannel: openCommandChannel,
      specOnly,
    });
    closeOnSignals(server, logger);
    const report = {
      url: server.url,
      role,
      specOnly,
      database: describeDatabase(config),
      demoMerchant: server.demo,
      demoStoreUrl: server.demoStoreUrl ?? null,
      outboxUrl: config.env === 'production' ? null : `${server.url}/dev/outbox`,
    };
    if (config.env === 'production') {
      // A log collector reads standard output: JSON lines only, and no credential in them (the
      // demo's, when PAYFRAME_DEMO=1 asks for it there, stay in DATA_DIR/demo-merchant.json).
      const demoMerchant = server.demo && {
        merchantId: server.demo.merchantId,
        dashboardUser: server.demo.dashboardUser,
        credentialsFile: path.join(config.dataDir, 'demo-merchant.json'),
      };
      const started = { ...report, demoMerchant };
      if (out.json) process.stdout.write(`${JSON.stringify(started)}\n`);
      else logger.info(started, 'Payframe is listening');
      return 'running';
    }
    const demoLines = server.demo
      ? [
          `Demo merchant created: id ${server.demo.merchantId}, TransactionKey ${server.demo.transactionKey}`,
          `Dashboard: ${server.url}/dashboard  user ${server.demo.dashboardUser}, password ${server.demo.dashboardPassword}`,
          `  (also in ${config.dataDir}/demo-merchant.json)`,
        ]
      : [];
    out.result(report, [
      `Payframe (${role}${specOnly ? ', spec operations only' : ''}) is listening on ${server.url}`,
      // The URL's origin and path only: a user:password in it stays off the terminal.
      ...(role === 'checkout' && config.transactionServiceUrl
        ? [
            `Gateway: ${new URL(config.transactionServiceUrl).origin}${new URL(config.transactionServiceUrl).pathname}`,
          ]
        : []),
      `Database: ${describeDatabase(config)}`,
      ...demoLines,
      ...(server.noMerchant
        ? [
            'No merchant yet: create one with',
            '  npx payframe merchant create --name "My Shop" --origin https://shop.example',
          ]
        : []),
      // Last, the addresses to open: Payframe itself, the shop that embeds it, and the outbox
      // where the one-time codes and e-mails a shopper or dashboard user is "sent" arrive.
      ...(server.demoStoreUrl
        ? [
            '',
            `Payframe:   ${server.url}`,
            `Demo store: ${server.demoStoreUrl}`,
            `Outbox:     ${report.outboxUrl}  (one-time codes and e-mails: saved cards, sign-in)`,
          ]
        : []),
    ]);
    return 'running';
  },

  async migrate(args, out) {
    parseArgs({ args, options: { json: { type: 'boolean' } }, strict: true });
    const config = loadConfig();
    let applied: string[] = [];
    const db = await openDatabase(config, (versions) => (applied = versions));
    let version: string | null;
    try {
      const newest = await db.query<{ version: string | null }>(
        'select max(version) as version from schema_migrations',
      );
      version = newest.rows[0]?.version ?? null;
    } finally {
      await db.close();
    }
    const names = new Map(listMigrations().map((m) => [m.version, m.name]));
    const migrations = applied.map((v) => ({ version: v, name: names.get(v) ?? '' }));
    const database = describeDatabase(config);
    out.result({ database, status: 'up to date', applied: migrations, version }, [
      ...(migrations.length === 0
        ? [`No migration to apply: ${database} was already up to date.`]
        : [
            `Applied ${migrations.length} migration${migrations.length === 1 ? '' : 's'} to ${database}:`,
            ...migrations.map((m) => `  ${m.version}_${m.name}`),
          ]),
      `Database version: ${version ?? 'none'}.`,
    ]);
    return undefined;
  },
};

/** Runs the CLI; resolves to an exit code, or 'running' for a command that keeps the process alive. */
export async function main(argv: string[]): Promise<number | 'running'> {
  const json = argv.includes('--json');
  const out = createOutput(json);
  const [name, ...rest] = argv.filter((a) => a !== '--json' || false);
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(HELP);
    return 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    out.error('unknown_command', `unknown command '${name}'. Run 'payframe help' for the list.`);
    return 2;
  }
  try {
    // DATA_DIR, PORT and the rest from .env (or PAYFRAME_ENV_FILE) under the environment's own.
    loadEnvFile();
    // On PGlite while a server holds DATA_DIR, the server runs it (handoff-client.ts).
    if (isDataCommand(name)) {
      const handed = await handOff(name === 'backup' ? withAbsoluteTarget(argv) : argv, loadConfig());
      if (handed !== null) return handed;
    }
    const state = await command(json ? [...rest, '--json'] : rest, out);
    return state === 'running' ? 'running' : 0;
  } catch (err) {
    const { code, message } = describeFailure(err);
    out.error(code, message);
    return exitCodeOf(code);
  }
}
