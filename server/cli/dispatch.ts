/**
 * The commands on the gateway's data (`merchant`, `session`, `user`, `keys`, `backup`; and
 * `merchant secret`, on a spec-mode checkout's) and how a failure becomes a message and an exit
 * code. One table for both places a command runs: this process
 * (main.ts) and a running server it was handed to (handoff-server.ts), so both run the same code
 * and answer the same messages and exit codes.
 */
import { ConfigError } from '../config.ts';
import { DataDirLockedError } from '../db/pglite.ts';
import { backupCommand } from './backup-command.ts';
import { checkoutOnlyError } from './command-context.ts';
import { merchantCommand, sessionCommand, userCommand } from './gateway-commands.ts';
import type { HANDOFF_COMMANDS } from './handoff-protocol.ts';
import { keysCommand } from './keys-command.ts';
import { CliError, createOutput, type Output, type Writer } from './output.ts';

export type Command = (args: string[], out: Output) => Promise<'running' | undefined>;

export const DATA_COMMANDS: Record<(typeof HANDOFF_COMMANDS)[number], Command> = {
  merchant: merchantCommand,
  session: sessionCommand,
  user: userCommand,
  keys: keysCommand,
  backup: backupCommand,
};

export function isDataCommand(name: string): name is keyof typeof DATA_COMMANDS {
  return Object.hasOwn(DATA_COMMANDS, name);
}

export function describeFailure(err: unknown): { code: string; message: string } {
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

/** A failure's exit code: 2 for a usage error, 1 otherwise. */
export function exitCodeOf(code: string): number {
  return code === 'invalid_arguments' ? 2 : 1;
}

/** Whether a command line is one a checkout-only server runs: its spec-mode merchants' only. */
export function runsOnCheckout(argv: readonly string[]): boolean {
  const [name, sub] = argv.filter((a) => a !== '--json');
  return name === 'merchant' && sub === 'secret';
}

/**
 * Runs a data command from its command line (`argv` after `payframe`, `--json` anywhere) with its
 * output on `stdout` and `stderr`; resolves to its exit code and never throws. `checkoutOnly`: the
 * server it was handed to is a checkout, which runs `merchant secret` only (command-context.ts).
 */
export async function runDataCommand(
  argv: readonly string[],
  stdout: Writer,
  stderr: Writer,
  { checkoutOnly = false }: { checkoutOnly?: boolean } = {},
): Promise<{ exitCode: number; failure: string | null }> {
  const json = argv.includes('--json');
  const out = createOutput(json, stdout, stderr);
  const [name, ...rest] = argv.filter((a) => a !== '--json');
  if (name === undefined || !isDataCommand(name)) {
    out.error('unknown_command', `unknown command '${name ?? ''}'. Run 'payframe help' for the list.`);
    return { exitCode: 2, failure: 'unknown_command' };
  }
  try {
    if (checkoutOnly && !runsOnCheckout(argv)) throw checkoutOnlyError();
    await DATA_COMMANDS[name](json ? [...rest, '--json'] : rest, out);
    return { exitCode: 0, failure: null };
  } catch (err) {
    const { code, message } = describeFailure(err);
    out.error(code, message);
    return { exitCode: exitCodeOf(code), failure: code };
  }
}
