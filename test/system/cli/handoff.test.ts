/**
 * `payframe` commands while `payframe serve` runs on the same PGlite data directory (issue 14 §13):
 * a real server in a child process, the real `payframe` command beside it. The command is handed to
 * the server over DATA_DIR/cli.sock and its effect is seen through the server's own API; the socket
 * is 0600, one others could use is refused, a stale one is handled, and a new TransactionKey reaches
 * the command's output but never the server's log.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../../server/config.ts';
import { randomKey, type ServerProcess, startPayframe } from '../crash/servers.ts';
import { tempDir } from '../../kit/databases.ts';
import { runPayframe } from '../../kit/cli/run-payframe.ts';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const payframe = (
  args: string[],
  dataDir: string,
  stdin = '',
  env: Record<string, string> = {},
): Promise<Run> =>
  runPayframe(args, { DATA_DIR: dataDir, ...env }, { stdin, baseEnv: { PATH: process.env.PATH ?? '' } });

function createSession(base: string, merchantId: string, key: string, returnUrl: string) {
  return fetch(`${base}/v1/checkout-sessions`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${merchantId}:${key}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ amount: '12.50', currency: 'USD', orderNumber: 'H-1', returnUrl }),
  });
}

const mode = (file: string) => fs.lstatSync(file).mode & 0o777;

describe('payframe commands while the server runs on PGlite', () => {
  let dataDir: string;
  let socket: string;
  let server: ServerProcess;
  let merchantId: string;
  let key: string;

  beforeAll(async () => {
    dataDir = tempDir('handoff-');
    socket = path.join(dataDir, 'cli.sock');
    // LOG_LEVEL info: the server logs each command it runs, so its log can be searched for the key.
    server = await startPayframe({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    ({ merchantId, transactionKey: key } = JSON.parse(
      fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8'),
    ) as { merchantId: string; transactionKey: string });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it('listens on DATA_DIR/cli.sock, a socket only its user may use', () => {
    expect(fs.lstatSync(socket).isSocket()).toBe(true);
    expect(mode(socket)).toBe(0o600);
    expect(mode(dataDir) & 0o022).toBe(0);
  });

  it(
    'runs merchant update in the server: the new origins count at once; list shows them',
    { timeout: 120_000 },
    async () => {
      const returnUrl = 'https://shop.example/thanks';
      const before = await createSession(server.url, merchantId, key, returnUrl);
      expect(before.status).toBe(400);

      const updated = await payframe(
        [
          'merchant',
          'update',
          '--merchant',
          merchantId,
          '--origin',
          'https://shop.example',
          '--origin',
          'http://localhost:8080',
          '--website',
          'https://shop.example',
        ],
        dataDir,
      );
      expect(updated.stderr).toBe('');
      expect(updated.code).toBe(0);
      expect(updated.stdout).toContain('Origins: https://shop.example, http://localhost:8080');

      // The server's own cache forgot the merchant: the new origin is accepted without a restart.
      const after = await createSession(server.url, merchantId, key, returnUrl);
      expect(after.status).toBe(201);

      const listed = await payframe(['merchant', 'list', '--json'], dataDir);
      expect(listed.code).toBe(0);
      const { merchants } = JSON.parse(listed.stdout) as {
        merchants: { merchantId: string; origins: string[]; website: string | null; disabled: boolean }[];
      };
      expect(merchants).toEqual([
        expect.objectContaining({
          merchantId,
          origins: ['https://shop.example', 'http://localhost:8080'],
          website: 'https://shop.example/',
          disabled: false,
        }),
      ]);
      const human = await payframe(['merchant', 'list'], dataDir);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(
        new RegExp(`^${merchantId} .*origins: https://shop\\.example, http://localhost:8080$`, 'm'),
      );
    },
  );

  it('answers bad input with the command’s own messages and exit codes', { timeout: 120_000 }, async () => {
    const unknown = await payframe(['merchant', 'update', '--merchant', merchantId, '--bogus'], dataDir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^payframe: Unknown option '--bogus'/);

    const json = await payframe(['merchant', 'update', '--merchant', merchantId, '--json'], dataDir);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error.code).toBe('invalid_arguments');

    const bad = await payframe(
      ['merchant', 'update', '--merchant', merchantId, '--origin', 'ftp://x'],
      dataDir,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^payframe: origin "ftp:\/\/x" must use https/);

    const missing = await payframe(['merchant', 'disable', '--merchant', '999999', '--json'], dataDir);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error).toEqual({ code: 'not_found', message: 'No merchant 999999.' });
  });

  it(
    'prints a rolled TransactionKey on the command’s output only, never in the server’s log',
    { timeout: 120_000 },
    async () => {
      const rolled = await payframe(['merchant', 'roll-key', '--merchant', merchantId, '--json'], dataDir);
      expect(rolled.code).toBe(0);
      const { transactionKey } = JSON.parse(rolled.stdout) as { transactionKey: string };
      expect(transactionKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // The server switched keys at once: the old one is refused, the new one works.
      expect((await createSession(server.url, merchantId, key, 'https://shop.example/a')).status).toBe(401);
      expect(
        (await createSession(server.url, merchantId, transactionKey, 'https://shop.example/a')).status,
      ).toBe(201);
      key = transactionKey;
      const log = server.output();
      expect(log).toContain('"command":"merchant roll-key","exitCode":0');
      expect(log).not.toContain(transactionKey);
    },
  );

  it('passes standard input to the command (user create --password-stdin)', { timeout: 60_000 }, async () => {
    const password = 'correct horse battery staple 7';
    const created = await payframe(
      ['user', 'create', '--merchant', merchantId, '--username', 'ops', '--password-stdin', '--json'],
      dataDir,
      `${password}\n`,
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ merchantId, username: 'ops' });
    expect(server.output()).not.toContain(password);
  });

  it('refuses a socket or a DATA_DIR others could use', { timeout: 120_000 }, async () => {
    try {
      fs.chmodSync(socket, 0o666);
      const open = await payframe(['merchant', 'list', '--json'], dataDir);
      expect(open.code).toBe(1);
      expect(JSON.parse(open.stdout).error).toEqual({
        code: 'handoff_refused',
        message: `Not handing the command to the running server: ${socket} has mode 666, not 600.`,
      });
    } finally {
      fs.chmodSync(socket, 0o600);
    }
    try {
      fs.chmodSync(dataDir, 0o770);
      const group = await payframe(['merchant', 'list'], dataDir);
      expect(group.code).toBe(1);
      expect(group.stderr).toContain('is writable by its group or by others (mode 770)');
    } finally {
      fs.chmodSync(dataDir, 0o700);
    }
    expect((await payframe(['merchant', 'list'], dataDir)).code).toBe(0);
  });

  it(
    'after the server is killed (SIGKILL), runs directly and removes the stale socket',
    { timeout: 120_000 },
    async () => {
      await server.kill9();
      expect(fs.lstatSync(socket).isSocket()).toBe(true); // left behind
      const listed = await payframe(['merchant', 'list', '--json'], dataDir);
      expect(listed.stderr).toBe('');
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout).merchants[0].merchantId).toBe(merchantId);
      expect(fs.existsSync(socket)).toBe(false);
    },
  );
});

/** A child process that stays alive (a lock holder) until killed. */
function idleProcess(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
}

describe('a locked DATA_DIR whose process takes no commands', () => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

  it('says so when the socket is missing, and when nobody answers on it', { timeout: 120_000 }, async () => {
    const dataDir = tempDir('handoff-stale-');
    fs.chmodSync(dataDir, 0o700);
    const holder = idleProcess();
    children.push(holder);
    fs.writeFileSync(path.join(dataDir, 'pglite.lock'), String(holder.pid), { mode: 0o600 });

    const none = await payframe(['merchant', 'list', '--json'], dataDir);
    expect(none.code).toBe(1);
    expect(JSON.parse(none.stdout).error.code).toBe('data_dir_locked');
    expect(none.stderr).toContain(`is in use by Payframe process ${holder.pid}, which takes no commands`);

    // A socket whose listener was killed: the file stays, nobody answers.
    const socket = path.join(dataDir, 'cli.sock');
    const listener = spawn(
      process.execPath,
      [
        '-e',
        `process.umask(0o177); require('node:net').createServer().listen(${JSON.stringify(socket)}, () => console.log('up'))`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(listener);
    await new Promise((resolve) => listener.stdout!.once('data', resolve));
    listener.kill('SIGKILL');
    await new Promise((resolve) => listener.once('exit', resolve));
    expect(mode(socket)).toBe(0o600);

    const stale = await payframe(['merchant', 'list', '--json'], dataDir);
    expect(stale.code).toBe(1);
    expect(JSON.parse(stale.stdout).error.code).toBe('handoff_stale');
    expect(stale.stderr).toContain(`No server answers on ${socket}`);
    expect(fs.existsSync(socket)).toBe(true); // not ours to remove while another process holds the lock
  });
});

const adminUrl = testDatabaseUrl();

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.skipIf(!adminUrl)(
  `on PostgreSQL${adminUrl ? '' : ' (skipped: TEST_DATABASE_URL is not set)'}`,
  () => {
    const name = `payframe_handoff_${crypto.randomBytes(6).toString('hex')}`;
    let server: ServerProcess | undefined;

    afterAll(async () => {
      await server?.stop();
      await admin(`drop database if exists ${name} with (force)`);
    }, 30_000);

    it(
      'has no socket: the command opens the database itself while the server runs',
      { timeout: 180_000 },
      async () => {
        await admin(`create database ${name}`);
        const url = new URL(adminUrl!);
        url.pathname = `/${name}`;
        const dataDir = tempDir('handoff-pg-');
        const env = {
          DATABASE_URL: url.toString(),
          CARD_ENCRYPTION_KEY: randomKey(),
          DATABASE_POOL_SIZE: '4',
        };
        server = await startPayframe({ ...env, DATA_DIR: dataDir });
        expect(fs.existsSync(path.join(dataDir, 'cli.sock'))).toBe(false);
        const { merchantId, transactionKey } = JSON.parse(
          fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8'),
        ) as { merchantId: string; transactionKey: string };

        const updated = await payframe(
          ['merchant', 'update', '--merchant', merchantId, '--origin', 'https://pg-shop.example', '--json'],
          dataDir,
          '',
          env,
        );
        expect(updated.stderr).toBe('');
        expect(updated.code).toBe(0);
        // The server hears of the change through the database (a notification; at most 10 s).
        const deadline = Date.now() + 15_000;
        let status = 0;
        while (Date.now() < deadline) {
          status = (await createSession(server.url, merchantId, transactionKey, 'https://pg-shop.example/t'))
            .status;
          if (status === 201) break;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        expect(status).toBe(201);
      },
    );
  },
);
