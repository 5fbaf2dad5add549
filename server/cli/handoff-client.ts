/**
 * The `payframe` command's end of the command channel (handoff-protocol.ts). On PGlite, when a live
 * process holds DATA_DIR's lock, a data command is handed to the server over DATA_DIR/cli.sock rather
 * than opening the database; on PostgreSQL, or when nothing holds the lock, it runs here as always.
 *
 * Before connecting, the socket must be a socket of this user's with mode 0600 in a DATA_DIR of this
 * user's that its group and others cannot write: otherwise someone else could have put it there to
 * read what the command sends (a password on standard input) or answer in the server's place.
 */
import fs from 'node:fs';
import net from 'node:net';
import type { Config } from '../config.ts';
import { lockHolder } from '../db/pglite.ts';
import {
  commandSocketPath,
  decode,
  directoryProblem,
  encode,
  lineReader,
  PROTOCOL_VERSION,
  SOCKET_PATH_MAX,
  ServerMessage,
  STDIN_MAX,
} from './handoff-protocol.ts';
import { CliError, type Writer } from './output.ts';

export interface HandoffIo {
  stdout: Writer;
  stderr: Writer;
  stdin: AsyncIterable<Buffer | string>;
}

/** Why the socket must not be trusted, or null when it is this user's alone. */
export function socketProblem(dataDir: string, socketPath: string): string | null {
  const dir = directoryProblem(dataDir);
  if (dir) return dir;
  const stat = fs.lstatSync(socketPath);
  if (!stat.isSocket()) return `${socketPath} is not a socket`;
  if (stat.uid !== process.getuid!()) {
    return `${socketPath} belongs to user ${stat.uid}, not to this user (${process.getuid!()}): run the command as the server's user`;
  }
  const mode = stat.mode & 0o777;
  if (mode !== 0o600) return `${socketPath} has mode ${mode.toString(8)}, not 600`;
  return null;
}

async function readAll(stdin: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    length += b.length;
    if (length > STDIN_MAX) {
      throw new CliError('invalid_arguments', `Standard input is longer than ${STDIN_MAX} bytes.`, 2);
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Hands `argv` (a data command's line) to the server holding DATA_DIR: resolves to the command's
 * exit code once it has run there, or null when the command is to run in this process (PostgreSQL,
 * or no live process holds the lock). Throws a CliError when a process holds DATA_DIR but the
 * command cannot be handed to it.
 */
export async function handOff(
  argv: readonly string[],
  config: Config,
  io: HandoffIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin },
): Promise<number | null> {
  if (config.databaseUrl) return null; // PostgreSQL: every process opens it
  const pid = lockHolder(config.dataDir);
  if (pid === null) return null; // nobody holds it (a stale lock and socket are taken over on open)
  const socketPath = commandSocketPath(config.dataDir);
  const held = `DATA_DIR ${config.dataDir} is in use by Payframe process ${pid}`;
  if (process.getuid === undefined) {
    throw new CliError('data_dir_locked', `${held}. Stop it first: Windows has no command channel.`);
  }
  if (Buffer.byteLength(socketPath) > SOCKET_PATH_MAX) {
    throw new CliError(
      'data_dir_locked',
      `${held}, and a path as long as ${socketPath} cannot be a socket (at most ${SOCKET_PATH_MAX} bytes), so the command cannot be handed to it: stop it first, or use a shorter DATA_DIR.`,
    );
  }
  if (!fs.existsSync(socketPath)) {
    throw new CliError(
      'data_dir_locked',
      `${held}, which takes no commands (no ${socketPath}): another payframe command still running, a server still starting, or one that could not open its command channel (its log says why). Try again in a moment, or stop it.`,
    );
  }
  const problem = socketProblem(config.dataDir, socketPath);
  if (problem) {
    throw new CliError('handoff_refused', `Not handing the command to the running server: ${problem}.`);
  }
  return converse(argv, socketPath, pid, io);
}

function converse(argv: readonly string[], socketPath: string, pid: number, io: HandoffIo): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.setEncoding('utf8');
    let settled = false;
    const finish = (outcome: number | Error) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (typeof outcome === 'number') resolve(outcome);
      else reject(outcome);
    };
    const interrupted = () =>
      new CliError(
        'handoff_interrupted',
        'The server closed the command channel before the command finished (stopped or restarted?). Whether it made the change is unknown: check before running the command again.',
      );
    const notUnderstood = () =>
      new CliError(
        'handoff_protocol',
        'The running server answered something this command does not understand: is it the same Payframe version?',
      );

    socket.on('connect', () => socket.write(encode({ v: PROTOCOL_VERSION, type: 'run', argv: [...argv] })));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') {
        finish(
          new CliError(
            'handoff_stale',
            `No server answers on ${socketPath} (a stale socket, left by a server that was killed?), yet process ${pid} holds DATA_DIR's lock (pglite.lock). If no Payframe server is running, that process is not Payframe's: remove pglite.lock and cli.sock from DATA_DIR and run the command again.`,
          ),
        );
      } else if (err.code === 'EACCES') {
        finish(
          new CliError(
            'handoff_refused',
            `Not allowed to connect to ${socketPath}: run as the server's user.`,
          ),
        );
      } else {
        finish(settled ? err : interrupted());
      }
    });
    socket.on('close', () => finish(interrupted()));
    socket.on(
      'data',
      lineReader(
        (line) => {
          const message = decode(ServerMessage, line);
          if (!message) return finish(notUnderstood());
          switch (message.type) {
            case 'out':
              (message.stream === 'stdout' ? io.stdout : io.stderr).write(message.data);
              return;
            case 'stdin?':
              readAll(io.stdin).then(
                (data) => socket.write(encode({ v: PROTOCOL_VERSION, type: 'stdin', data })),
                (err: unknown) => finish(err as Error),
              );
              return;
            case 'exit':
              return finish(message.code);
            case 'refused':
              return finish(
                new CliError(
                  message.code === 'shutting_down' ? 'handoff_refused' : 'handoff_protocol',
                  `The running server refused the command: ${message.message}.`,
                ),
              );
          }
        },
        () => finish(notUnderstood()),
      ),
    );
  });
}
