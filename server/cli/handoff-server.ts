/**
 * The server's end of the command channel (handoff-protocol.ts): `payframe serve` on PGlite listens on
 * DATA_DIR/cli.sock and runs the commands the `payframe` command hands it — the same implementations
 * (dispatch.ts) on the server's configuration, database and gateway (command-context.ts) — streaming
 * their output and exit code back.
 *
 * Who may connect: the socket is created with mode 0600 (under umask 0177, then checked), in a
 * DATA_DIR that must be this user's and not writable by group or others; the server refuses to
 * listen otherwise (and serves without the channel). Node offers no peer-credential check
 * (SO_PEERCRED) for Unix sockets, so the file's permissions are the access control: only this user
 * (and root) can connect. Not on Windows.
 *
 * What the log gets: the command's name, its exit code and failure code, never its arguments or
 * output (a new TransactionKey goes to the CLI's standard output only).
 */
import fs from 'node:fs';
import net from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import type { Gateway } from '../gateway/index.ts';
import { runServed } from './command-context.ts';
import { runDataCommand } from './dispatch.ts';
import {
  ClientMessage,
  commandSocketPath,
  decode,
  directoryProblem,
  encode,
  lineReader,
  PROTOCOL_VERSION,
  type RunRequest,
  SOCKET_PATH_MAX,
  type ServerMessage,
  StdinMessage,
} from './handoff-protocol.ts';

/** How long a connection may take to send its request, or its standard input when asked. */
const IDLE_MS = 30_000;
/** The subcommand words the log may name (never an argument's value). */
const SUBCOMMAND = /^(create|update|roll-key|disable|enable|rotate|secret)$/;

export interface CommandChannel {
  readonly path: string;
  /** Stops taking commands, waits for those running, removes the socket. */
  close(): Promise<void>;
}

export interface CommandChannelParts {
  config: Config;
  db: Database;
  gateway: Gateway | null;
  logger: Logger;
}

/** Listens on `path` with mode 0600 from its creation. */
function listenPrivately(server: net.Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // The bind happens within listen(): under umask 0177 the socket is never more open than 0600.
    const umask = process.umask(0o177);
    try {
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      process.umask(umask);
    }
  });
}

/**
 * Opens the command channel for a server on PGlite; null when there is none (PostgreSQL needs none:
 * commands open the database themselves) or it cannot be opened safely (logged). A checkout-only
 * server (no gateway) keeps none of the gateway's merchants: it runs `merchant secret` only.
 */
export async function openCommandChannel(parts: CommandChannelParts): Promise<CommandChannel | null> {
  const { config, logger } = parts;
  if (config.databaseUrl || parts.db.kind !== 'pglite') return null;
  const path = commandSocketPath(config.dataDir);
  const unavailable = (reason: string) => {
    logger.warn({ socket: path, reason }, 'no command channel: `payframe` commands need this server stopped');
    return null;
  };
  if (Buffer.byteLength(path) > SOCKET_PATH_MAX) {
    return unavailable(`the socket path is longer than ${SOCKET_PATH_MAX} bytes: set a shorter DATA_DIR`);
  }
  const problem = directoryProblem(config.dataDir);
  if (problem) return unavailable(problem);
  // This server holds DATA_DIR's lock, so a socket there is a dead server's: removed. Anything else
  // there is not ours to remove.
  const existing = fs.lstatSync(path, { throwIfNoEntry: false });
  if (existing) {
    if (!existing.isSocket() || existing.uid !== process.getuid!()) {
      return unavailable(`${path} exists and is not a socket of this user's`);
    }
    fs.rmSync(path, { force: true });
  }

  let closing = false;
  const running = new Set<Promise<unknown>>();
  const connections = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
    converse(socket, parts, () => closing, running);
  });
  try {
    await listenPrivately(server, path);
    fs.chmodSync(path, 0o600);
  } catch (err) {
    server.close();
    return unavailable((err as Error).message);
  }
  const mode = fs.lstatSync(path).mode & 0o777;
  if (mode !== 0o600) {
    server.close();
    return unavailable(`the socket's mode is ${mode.toString(8)}, not 600`);
  }
  logger.info(
    { socket: path },
    'command channel listening (payframe commands run here while this server runs)',
  );

  let closed: Promise<void> | undefined;
  return {
    path,
    close() {
      closed ??= (async () => {
        closing = true;
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await Promise.allSettled([...running]);
        for (const socket of connections) socket.destroy();
        await stopped;
        // Closing a listening Unix socket does not always remove its file.
        if (fs.lstatSync(path, { throwIfNoEntry: false })?.isSocket()) fs.rmSync(path, { force: true });
      })();
      return closed;
    },
  };
}

/** One connection: a run request, the command's output, its exit code. */
function converse(
  socket: net.Socket,
  parts: CommandChannelParts,
  closing: () => boolean,
  running: Set<Promise<unknown>>,
): void {
  const { config, db, gateway, logger } = parts;
  socket.setEncoding('utf8');
  socket.setTimeout(IDLE_MS, () => socket.destroy());
  socket.on('error', () => {}); // a CLI gone away: its output has nowhere to go, the command goes on
  const send = (message: ServerMessage) => {
    if (!socket.destroyed && socket.writable) socket.write(encode(message));
  };
  const refuse = (code: 'unsupported_version' | 'invalid_request' | 'shutting_down', message: string) => {
    send({ v: PROTOCOL_VERSION, type: 'refused', code, message });
    socket.end();
  };

  let state: 'request' | 'running' | 'stdin' | 'done' = 'request';
  let stdinArrived: ((data: string) => void) | undefined;

  const readStdin = () => {
    if (state !== 'running') return Promise.reject(new Error('standard input was already read'));
    state = 'stdin';
    socket.setTimeout(IDLE_MS);
    send({ v: PROTOCOL_VERSION, type: 'stdin?' });
    return new Promise<string>((resolve, reject) => {
      const gone = () =>
        reject(new Error('the payframe command went away before sending its standard input'));
      socket.once('close', gone);
      stdinArrived = (data) => {
        socket.off('close', gone);
        socket.setTimeout(0);
        state = 'running';
        resolve(data);
      };
    });
  };

  const run = (request: RunRequest) => {
    state = 'running';
    socket.setTimeout(0); // a command may take its time (keys rotate)
    const started = performance.now();
    const task = runServed({ config, db, gateway, readStdin }, () =>
      runDataCommand(
        request.argv,
        { write: (data) => send({ v: PROTOCOL_VERSION, type: 'out', stream: 'stdout', data }) },
        { write: (data) => send({ v: PROTOCOL_VERSION, type: 'out', stream: 'stderr', data }) },
        { checkoutOnly: gateway === null },
      ),
    );
    running.add(task);
    void task.then(({ exitCode, failure }) => {
      running.delete(task);
      state = 'done';
      const [command, sub] = request.argv;
      logger.info(
        {
          command: SUBCOMMAND.test(sub ?? '') ? `${command} ${sub}` : command,
          exitCode,
          failure,
          ms: Math.round(performance.now() - started),
        },
        'ran a payframe command handed over the command channel',
      );
      send({ v: PROTOCOL_VERSION, type: 'exit', code: exitCode });
      socket.end();
    });
  };

  socket.on(
    'data',
    lineReader(
      (line) => {
        if (state === 'request') {
          state = 'done'; // unless it is run below
          const value = safeJson(line);
          if (value === undefined) return refuse('invalid_request', 'not a JSON message');
          const version =
            typeof value === 'object' && value !== null ? (value as { v?: unknown }).v : undefined;
          if (version !== PROTOCOL_VERSION) {
            return refuse(
              'unsupported_version',
              `this server speaks version ${PROTOCOL_VERSION} of the command channel, the request ${
                version === undefined ? 'named none' : `version ${JSON.stringify(version)}`
              }: run the payframe command of the same Payframe release as the server`,
            );
          }
          const parsed = ClientMessage.safeParse(value);
          if (!parsed.success || parsed.data.type !== 'run') {
            const issue = parsed.success ? 'the first message must be run' : parsed.error.issues[0]?.message;
            return refuse('invalid_request', `not a command this channel runs: ${issue}`);
          }
          if (closing()) {
            return refuse(
              'shutting_down',
              'the server is shutting down; run the command again once it has stopped',
            );
          }
          run(parsed.data);
        } else if (state === 'stdin') {
          const message = decode(StdinMessage, line);
          if (message) stdinArrived?.(message.data);
          else socket.destroy();
        } else {
          socket.destroy(); // nothing else is expected
        }
      },
      () => socket.destroy(),
    ),
  );
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
