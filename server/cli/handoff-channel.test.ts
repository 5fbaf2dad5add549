/**
 * The server's end of the command channel (handoff-server.ts) in this process, on a PGlite data
 * directory, spoken to as raw JSON lines: what it refuses (not JSON, another or no version, a command
 * it does not run, an unknown field), what it runs (the commands' own output and exit codes, standard
 * input asked for), what its log gets (never a TransactionKey), and where it will not listen.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/index.ts';
import { type Gateway, openGateway } from '../gateway/index.ts';
import { tempDir } from '../../test/kit/databases.ts';
import { ServerMessage } from './handoff-protocol.ts';
import { type CommandChannel, openCommandChannel } from './handoff-server.ts';

/** Sends `lines`, answers a request for standard input with `stdin`; resolves to what came back. */
function talk(socketPath: string, lines: string[], stdin = ''): Promise<ServerMessage[]> {
  return new Promise((resolve, reject) => {
    const got: ServerMessage[] = [];
    const socket = net.connect(socketPath, () => socket.write(lines.map((l) => `${l}\n`).join('')));
    socket.setEncoding('utf8');
    let pending = '';
    socket.on('data', (chunk: string) => {
      pending += chunk;
      let at: number;
      while ((at = pending.indexOf('\n')) >= 0) {
        const message = ServerMessage.parse(JSON.parse(pending.slice(0, at)));
        pending = pending.slice(at + 1);
        got.push(message);
        if (message.type === 'stdin?')
          socket.write(`${JSON.stringify({ v: 1, type: 'stdin', data: stdin })}\n`);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(got));
  });
}

const run = (argv: string[]) => JSON.stringify({ v: 1, type: 'run', argv });
const printed = (messages: ServerMessage[], stream: 'stdout' | 'stderr') =>
  messages.map((m) => (m.type === 'out' && m.stream === stream ? m.data : '')).join('');

describe('the command channel in the server', () => {
  let dir: string;
  let config: Config;
  let db: Database;
  let gateway: Gateway;
  let channel: CommandChannel | null;
  let log = '';
  const logger = pino({ level: 'info' }, { write: (line: string) => (log += line) });

  beforeAll(async () => {
    dir = tempDir('channel-');
    fs.chmodSync(dir, 0o700);
    config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir });
    db = await openDatabase(config);
    gateway = await openGateway(config, db);
    // A socket a killed server left (closing a server removes its socket; SIGKILL does not): this
    // process holds the lock, so the channel removes it and listens.
    const socketPath = path.join(dir, 'cli.sock');
    const listener = spawn(
      process.execPath,
      [
        '-e',
        `require('node:net').createServer().listen(${JSON.stringify(socketPath)}, () => console.log('up'))`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((resolve) => listener.stdout!.once('data', resolve));
    listener.kill('SIGKILL');
    await new Promise((resolve) => listener.once('exit', resolve));
    expect(fs.lstatSync(socketPath).isSocket()).toBe(true);
    channel = await openCommandChannel({ config, db, gateway, logger });
  }, 60_000);

  afterAll(async () => {
    await channel?.close();
    await db?.close();
  });

  it('listens on DATA_DIR/cli.sock with mode 0600', () => {
    expect(channel?.path).toBe(path.join(dir, 'cli.sock'));
    const stat = fs.lstatSync(channel!.path);
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
  });

  it('refuses what is not a request of its version for a command it runs', async () => {
    const refusal = async (line: string) => {
      const [message, ...rest] = await talk(channel!.path, [line]);
      expect(rest).toEqual([]);
      expect(message?.type).toBe('refused');
      return message as Extract<ServerMessage, { type: 'refused' }>;
    };
    expect(await refusal('merchant list')).toMatchObject({
      code: 'invalid_request',
      message: 'not a JSON message',
    });
    expect(await refusal(JSON.stringify({ type: 'run', argv: ['merchant', 'list'] }))).toMatchObject({
      code: 'unsupported_version',
    });
    const v2 = await refusal(JSON.stringify({ v: 2, type: 'run', argv: ['merchant', 'list'] }));
    expect(v2.code).toBe('unsupported_version');
    expect(v2.message).toContain('version 1 of the command channel, the request version 2');
    expect(await refusal(run(['serve']))).toEqual({
      v: 1,
      type: 'refused',
      code: 'invalid_request',
      message:
        'not a command this channel runs: the command must be one of merchant, session, user, keys, backup',
    });
    expect(
      await refusal(JSON.stringify({ v: 1, type: 'run', argv: ['merchant', 'list'], cwd: '/' })),
    ).toMatchObject({ code: 'invalid_request' });
    expect(await refusal(JSON.stringify({ v: 1, type: 'stdin', data: '' }))).toMatchObject({
      code: 'invalid_request',
      message: 'not a command this channel runs: the first message must be run',
    });
  });

  it('runs a command: its output, its exit code; the TransactionKey never in the log', async () => {
    const created = await talk(channel!.path, [
      run(['merchant', 'create', '--name', 'Channel Shop', '--json']),
    ]);
    expect(created.at(-1)).toEqual({ v: 1, type: 'exit', code: 0 });
    const { merchantId, transactionKey } = JSON.parse(printed(created, 'stdout')) as {
      merchantId: string;
      transactionKey: string;
    };
    expect(transactionKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(log).toContain('"command":"merchant create","exitCode":0');
    expect(log).not.toContain(transactionKey);
    expect(log).not.toContain('Channel Shop');

    const bad = await talk(channel!.path, [run(['merchant', 'update', '--merchant', merchantId, '--bogus'])]);
    expect(bad.at(-1)).toEqual({ v: 1, type: 'exit', code: 2 });
    expect(printed(bad, 'stderr')).toMatch(/^payframe: Unknown option '--bogus'/);
    expect(printed(bad, 'stdout')).toBe('');

    const user = await talk(
      channel!.path,
      [run(['user', 'create', '--merchant', merchantId, '--username', 'ops', '--password-stdin'])],
      'correct horse battery staple 7\n',
    );
    expect(user.map((m) => m.type)).toEqual(['stdin?', 'out', 'exit']);
    expect(user.at(-1)).toEqual({ v: 1, type: 'exit', code: 0 });
    expect(log).not.toContain('correct horse');

    // The commands "closed" the database they were lent: the server's stays open.
    await expect(db.ping()).resolves.toBeUndefined();
  }, 60_000);

  it('will not listen in a DATA_DIR others can write, or over a file that is not its socket', async () => {
    const open = tempDir('channel-open-');
    fs.chmodSync(open, 0o770);
    const warned = log.length;
    expect(
      await openCommandChannel({ config: { ...config, dataDir: open }, db, gateway, logger }),
    ).toBeNull();
    expect(log.slice(warned)).toContain('is writable by its group or by others (mode 770)');
    expect(fs.existsSync(path.join(open, 'cli.sock'))).toBe(false);

    const planted = tempDir('channel-file-');
    fs.chmodSync(planted, 0o700);
    fs.writeFileSync(path.join(planted, 'cli.sock'), 'not a socket');
    expect(
      await openCommandChannel({ config: { ...config, dataDir: planted }, db, gateway, logger }),
    ).toBeNull();
    expect(fs.readFileSync(path.join(planted, 'cli.sock'), 'utf8')).toBe('not a socket');
  });

  it('on close, removes the socket and takes no more commands', async () => {
    const socketPath = channel!.path;
    await channel!.close();
    expect(fs.existsSync(socketPath)).toBe(false);
    await expect(talk(socketPath, [run(['merchant', 'list'])])).rejects.toMatchObject({ code: 'ENOENT' });
    channel = null;
  });
});
