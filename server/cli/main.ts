/**
 * `payframe` — the operator's command. Every command accepts --json for scripts.
 *
 *   payframe serve            start the server (what `npm start` runs); --role all|gateway|checkout
 *   payframe migrate          apply database migrations and exit
 *   payframe merchant create  create a merchant (id + TransactionKey); update, roll-key, disable, enable
 *   payframe session create   create a checkout session (token + URL)
 *   payframe user create      create a merchant user (Login), password from standard input
 *   payframe keys rotate      re-encrypt stored secrets under the current CARD_ENCRYPTION_KEY
 *   payframe help             this text
 */
import { parseArgs } from 'node:util';
import { ConfigError, isRole, loadConfig, ROLES } from '../config.ts';
import { describeDatabase, openDatabase } from '../db/index.ts';
import { DataDirLockedError } from '../db/pglite.ts';
import { createLogger } from '../logger.ts';
import { closeOnSignals, startServer } from '../server.ts';
import { merchantCommand, sessionCommand, userCommand } from './gateway-commands.ts';
import { keysCommand } from './keys-command.ts';
import { CliError, createOutput, type Output } from './output.ts';

export const HELP = `Usage: payframe <command> [options]

Commands:
  serve [--role all|gateway|checkout]
              Start Payframe (configuration from the environment; see .env.example).
              all (default): everything in one process. gateway: the Transaction Service,
              3-D Secure pages, users, recurring payments. checkout: merchant REST, the
              widget's API and pages, calling the gateway at TRANSACTION_SERVICE_URL (needs
              GATEWAY_SERVICE_KEY and CHECKOUT_SECRET). See server/checkout/README.md.
  migrate     Apply pending database migrations and exit
  merchant create --name <name> [--origin <url>]... [--3ds] [--business-name <name>]
                  [--logo-url <url>] [--website <url>] [--email <address>] [--phone <number>]
                  [--methods card,ach]
              Create a merchant; prints its id and TransactionKey (shown once). --origin: a page
              origin that may embed the checkout and receive the redirect (repeat for several)
  merchant update --merchant <id> [--origin <url>]... [--website <url>] [--logo-url <url>]
                  [--business-name <name>] [--email <address>] [--phone <number>]
                  [--methods card,ach] [--3ds|--no-3ds]
              Change a merchant: --origin replaces the whole list of registered origins; an
              empty value ("") clears website, logo, e-mail or phone. Values are checked as
              for create. On the embedded database, stop the server first
  merchant roll-key --merchant <id>
              Replace a merchant's TransactionKey (the old one stops working; the new one is shown once)
  merchant disable|enable --merchant <id>
              Refuse (or accept again) a merchant's credential
  session create --merchant <id> --amount <10.50> [--currency <USD>] [--return-url <url>]
                  [--webhook-url <url>] [--order <no>] [--email <address>] [--phone <number>]
                  [--first-name <name>] [--last-name <name>] [--locale <tag>]
              Create a checkout session; prints its token and URL
  user create --merchant <id> --username <name> --password-stdin [--email <address>]
              Create a merchant user who can sign in (Login); reads the password from standard input
  keys rotate [--batch-size <rows>]
              Re-encrypt stored cards and merchant keys under CARD_ENCRYPTION_KEY (earlier keys
              in CARD_ENCRYPTION_KEYS_OLD); safe while servers run, safe to run again
  help        Show this help

Options:
  --json      Print results and errors as JSON
  -h, --help  Show this help
`;

type Command = (args: string[], out: Output) => Promise<'running' | undefined>;

const commands: Record<string, Command> = {
  merchant: merchantCommand,
  session: sessionCommand,
  user: userCommand,
  keys: keysCommand,
  async serve(args, out) {
    const { values } = parseArgs({
      args,
      options: { json: { type: 'boolean' }, role: { type: 'string', default: 'all' } },
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
    const config = loadConfig();
    const logger = createLogger({ level: config.logLevel });
    const server = await startServer(config, logger, role);
    closeOnSignals(server, logger);
    const demoLines = server.demo
      ? [
          `Demo merchant created: id ${server.demo.merchantId}, TransactionKey ${server.demo.transactionKey}`,
          `  (also in ${config.dataDir}/demo-merchant.json)`,
        ]
      : [];
    out.result(
      {
        url: server.url,
        role,
        database: describeDatabase(config),
        demoMerchant: server.demo,
        demoStoreUrl: server.demoStoreUrl ?? null,
      },
      [
        `Payframe (${role}) is listening on ${server.url}`,
        // The URL's origin and path only: a user:password in it stays off the terminal.
        ...(role === 'checkout' && config.transactionServiceUrl
          ? [
              `Gateway: ${new URL(config.transactionServiceUrl).origin}${new URL(config.transactionServiceUrl).pathname}`,
            ]
          : []),
        `Database: ${describeDatabase(config)}`,
        ...demoLines,
        // Last, the two addresses to open: Payframe itself and the shop that embeds it.
        ...(server.demoStoreUrl
          ? ['', `Payframe:   ${server.url}`, `Demo store: ${server.demoStoreUrl}`]
          : []),
      ],
    );
    return 'running';
  },

  async migrate(args, out) {
    parseArgs({ args, options: { json: { type: 'boolean' } }, strict: true });
    const config = loadConfig();
    const db = await openDatabase(config);
    await db.close();
    out.result({ database: describeDatabase(config), status: 'up to date' }, [
      `Migrations applied: ${describeDatabase(config)} is up to date.`,
    ]);
    return undefined;
  },
};

function describeFailure(err: unknown): { code: string; message: string } {
  if (err instanceof CliError) return { code: err.code, message: err.message };
  if (err instanceof ConfigError) return { code: 'invalid_config', message: err.message };
  if (err instanceof DataDirLockedError) return { code: 'data_dir_locked', message: err.message };
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EADDRINUSE')
    return { code: 'port_in_use', message: `${e.message}. Set PORT to a free port.` };
  if (e?.code === 'ECONNREFUSED') {
    return { code: 'database_unreachable', message: `Cannot reach the database: ${e.message}` };
  }
  if (typeof (err as { message?: unknown })?.message === 'string' && err instanceof TypeError) {
    // parseArgs reports unknown options as TypeErrors with a readable message.
    return { code: 'invalid_arguments', message: (err as Error).message };
  }
  return { code: 'failed', message: err instanceof Error ? err.message : String(err) };
}

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
    const state = await command(json ? [...rest, '--json'] : rest, out);
    return state === 'running' ? 'running' : 0;
  } catch (err) {
    const { code, message } = describeFailure(err);
    out.error(code, message);
    return code === 'invalid_arguments' ? 2 : 1;
  }
}
