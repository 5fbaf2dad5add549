/**
 * The command channel between the `payframe` command and a running `payframe serve` on PGlite
 * (docs/deployment.md "Operator commands while the server runs"). PGlite admits one process per data
 * directory, so while the server holds DATA_DIR the command hands itself to the server instead of
 * opening the database: over the Unix domain socket DATA_DIR/cli.sock (mode 0600, this user's only).
 *
 * Messages are JSON documents, one per line (JSON.stringify never writes a raw line break), each
 * checked against the schemas below on arrival; anything else ends the conversation. Every message
 * carries the protocol version. The conversation:
 *
 *   CLI → server   run        { v, type: 'run', argv }                the command line after `payframe`
 *   server → CLI   stdin?     { v, type: 'stdin?' }                   the command reads standard input
 *   CLI → server   stdin      { v, type: 'stdin', data }              all of it (at most STDIN_MAX)
 *   server → CLI   out        { v, type: 'out', stream, data }        what the command prints
 *   server → CLI   exit       { v, type: 'exit', code }               the command's exit code; the end
 *   server → CLI   refused    { v, type: 'refused', code, message }   not run (bad request, version)
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const PROTOCOL_VERSION = 1;

/** The socket's name in DATA_DIR. */
export const SOCKET_NAME = 'cli.sock';

export function commandSocketPath(dataDir: string): string {
  return path.join(dataDir, SOCKET_NAME);
}

/** Why DATA_DIR cannot hold the socket safely, or null when it can. */
export function directoryProblem(dir: string): string | null {
  const uid = process.getuid?.();
  if (uid === undefined) return 'this platform has no Unix user ids (Windows): no command channel';
  const stat = fs.statSync(dir);
  if (!stat.isDirectory()) return `${dir} is not a directory`;
  if (stat.uid !== uid) return `${dir} belongs to user ${stat.uid}, not to this user (${uid})`;
  if (stat.mode & 0o022) {
    return `${dir} is writable by its group or by others (mode ${(stat.mode & 0o777).toString(8)}): make it 0700 or 0755`;
  }
  return null;
}

/**
 * The longest socket path the platforms take (sun_path: 108 bytes on Linux, 104 on macOS, with
 * its terminating zero). A longer DATA_DIR has no command channel.
 */
export const SOCKET_PATH_MAX = 103;

/** The commands a server runs for the CLI: those on the gateway's data. */
export const HANDOFF_COMMANDS = ['merchant', 'session', 'user', 'keys', 'backup'] as const;

/** Bounds on what either side reads: a line, the arguments, standard input. */
export const LINE_MAX = 1024 * 1024;
export const STDIN_MAX = 64 * 1024;
const ARGS_MAX = 200;
const ARG_MAX = 8192;

const version = z.literal(PROTOCOL_VERSION);

export const RunRequest = z.strictObject({
  v: version,
  type: z.literal('run'),
  argv: z
    .array(z.string().max(ARG_MAX))
    .min(1)
    .max(ARGS_MAX)
    .refine((argv) => (HANDOFF_COMMANDS as readonly string[]).includes(argv[0] ?? ''), {
      message: `the command must be one of ${HANDOFF_COMMANDS.join(', ')}`,
    }),
});
export type RunRequest = z.infer<typeof RunRequest>;

export const StdinMessage = z.strictObject({
  v: version,
  type: z.literal('stdin'),
  data: z.string().max(STDIN_MAX),
});

/** What the CLI sends. */
export const ClientMessage = z.discriminatedUnion('type', [RunRequest, StdinMessage]);
export type ClientMessage = z.infer<typeof ClientMessage>;

export const REFUSAL_CODES = ['unsupported_version', 'invalid_request', 'shutting_down'] as const;

/** What the server sends. */
export const ServerMessage = z.discriminatedUnion('type', [
  z.strictObject({ v: version, type: z.literal('stdin?') }),
  z.strictObject({
    v: version,
    type: z.literal('out'),
    stream: z.enum(['stdout', 'stderr']),
    data: z.string(),
  }),
  z.strictObject({ v: version, type: z.literal('exit'), code: z.number().int().min(0).max(255) }),
  z.strictObject({
    v: version,
    type: z.literal('refused'),
    code: z.enum(REFUSAL_CODES),
    message: z.string(),
  }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/** One message as its line. */
export function encode(message: ClientMessage | ServerMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * Splits a byte stream into lines and hands each to `onLine`; a line longer than LINE_MAX calls
 * `onOverflow` and nothing more is read.
 */
export function lineReader(onLine: (line: string) => void, onOverflow: () => void) {
  let pending = '';
  let stopped = false;
  return (chunk: Buffer | string) => {
    if (stopped) return;
    pending += chunk.toString();
    let at: number;
    while ((at = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, at);
      pending = pending.slice(at + 1);
      onLine(line);
      if (stopped) return;
    }
    if (pending.length > LINE_MAX) {
      stopped = true;
      onOverflow();
    }
  };
}

/** Parses one line against `schema`: the message, or null when it is not one. */
export function decode<T>(schema: z.ZodType<T>, line: string): T | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
