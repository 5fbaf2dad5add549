/**
 * Fault hooks of the crash tests, on the database side only (no hook in Payframe's code): a trigger
 * that stalls the gateway's record of a checkout session's charge — the processor has approved and
 * its ledger says so, the transaction row is not yet written — so the test can kill the process in
 * exactly that window; and a receiver for the webhooks a merchant would get.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Queryable } from '../../../server/db/database.ts';

/** The application name a stalled backend takes, so the test finds it (and only it). */
const STALLED = 'payframe-crash-stalled';

/**
 * Installs the stall: an insert into `transactions` for a session listed in `crash_stall` sleeps
 * (up to 2 minutes) inside the gateway's record transaction, before anything of it is committed.
 */
export async function installRecordStall(db: Queryable): Promise<void> {
  await db.query('create table crash_stall (session_id bigint primary key)');
  await db.query(`create function crash_stall() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from crash_stall where session_id = new.checkout_session_id) then
        perform set_config('application_name', '${STALLED}', false);
        perform pg_sleep(120);
      end if;
      return new;
    end $$`);
  await db.query(
    'create trigger crash_stall before insert on transactions for each row execute function crash_stall()',
  );
}

/**
 * The same stall for the embedded database, where nothing else can open the data directory while
 * the server runs: installed before the start, it holds the record of any session whose order
 * number begins with `orderPrefix`. PGlite runs in the server's own thread, so the stall freezes the
 * whole process (its health check stops answering), which is how the test sees the window.
 */
export async function installOrderStall(db: Queryable, orderPrefix: string): Promise<void> {
  await db.query(`create function crash_stall() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from checkout_sessions s
                 where s.id = new.checkout_session_id and starts_with(s.order_number, '${orderPrefix}')) then
        perform pg_sleep(120);
      end if;
      return new;
    end $$`);
  await db.query(
    'create trigger crash_stall before insert on transactions for each row execute function crash_stall()',
  );
}

/** Lifts installOrderStall (the data directory opened again once the process is gone). */
export async function removeOrderStall(db: Queryable): Promise<void> {
  await db.query('drop trigger crash_stall on transactions');
  await db.query('drop function crash_stall()');
}

export async function stallRecordOf(db: Queryable, token: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'insert into crash_stall select id from checkout_sessions where token = $1 returning session_id::text as id',
    [token],
  );
  return rows[0]!.id;
}

/**
 * After the kill: the stall is lifted and the stalled backend ended, as PostgreSQL ends the
 * transaction of any client that is gone (here the backend sleeps, so it would notice only later).
 */
export async function endStall(db: Queryable): Promise<number> {
  await db.query('delete from crash_stall');
  const { rows } = await db.query<{ ended: boolean }>(
    `select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1`,
    [STALLED],
  );
  return rows.length;
}

/** Waits until the processor's ledger holds an approved charge for the session. */
export async function waitForApproval(db: Queryable, sessionId: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await db.query<{ reference: string }>(
      `select reference from processor_ledger where reference like $1 and (result->>'approved')::boolean`,
      [`cs${sessionId}-a%`],
    );
    if (rows[0]) return rows[0].reference;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no approved charge for session ${sessionId} within ${timeoutMs} ms`);
}

export interface WebhookReceiver {
  url: string;
  events: { type: string; data: Record<string, unknown> }[];
  waitFor(type: string, timeoutMs: number): Promise<{ type: string; data: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** A merchant's webhook endpoint on the loopback interface: answers 200, keeps each event. */
export async function webhookReceiver(): Promise<WebhookReceiver> {
  const events: WebhookReceiver['events'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d));
    req.on('end', () => {
      try {
        events.push(JSON.parse(body) as WebhookReceiver['events'][number]);
      } catch {
        // not an event: ignored
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/payframe-events`,
    events,
    async waitFor(type, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = events.find((e) => e.type === type);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(
        `no ${type} webhook within ${timeoutMs} ms (got ${events.map((e) => e.type).join(', ')})`,
      );
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
