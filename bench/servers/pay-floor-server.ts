/**
 * A floor for bench/pay-floor.bench.ts, not a checkout: bare `node:http` that reads a pay's JSON
 * body and makes exactly the database round trips of one card pay through Payframe's own
 * PostgreSQL driver (server/db/postgres.ts, pipelined as in production), each statement a real
 * write or read of one row, then answers a small JSON body. It has no routing, validation, vault,
 * processor or signing: what it costs is what the transport and the driver cost for the pay's
 * shape (server/checkout/README.md "What a card pay costs"), the part no Payframe code can go below
 * without fewer statements or round trips.
 *
 *   BENCH_DATABASE_URL  the database (a throwaway one: the bench makes and drops it)
 *   FLOOR_SHAPE         pay (the default): a pay's 5 transactions, 13 statements, 10 round trips;
 *                       five: 5 single-statement transactions, one round trip each (the fewest
 *                       commits a pay can make: DESIGN.md's order of records, server/checkout/README.md);
 *                       http: no database at all (the request and its answer alone)
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { openPostgres } from '../../server/db/postgres.ts';
import { announce, exitWithParent, profileWhileServing } from './fixture.ts';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL is required');
const db = await openPostgres({ url, poolSize: 10 });
await db.exec(`
  create table if not exists floor_rows (id text primary key, n bigint not null, v text not null, at timestamptz not null);
`);

const upsert = `insert into floor_rows (id, n, v, at) values ($1, 1, $2, now())
  on conflict (id) do update set n = floor_rows.n + 1, v = excluded.v returning id, n, v, at`;
const read = 'select id, n, v, at from floor_rows where id = $1';
const touch = 'update floor_rows set n = n + 1 where id = $1 returning id, n, v, at';

/** Five transactions of one statement each, one after another. */
async function fiveShape(key: string, body: string): Promise<number> {
  let n = 0;
  for (const what of ['attempt', 'claim', 'ledger', 'transaction', 'payment'])
    n = Number((await db.query<{ n: string }>(upsert, [`${key}:${what}`, body])).rows[0]!.n);
  return n;
}

/** One pay's shape: 5 transactions, 13 statements, 10 round trips, in the order a pay makes them. */
async function payShape(key: string, body: string): Promise<number> {
  const id = (s: string) => `${key}:${s}`;
  // 1: counters, key claim, paid look-up sent with BEGIN; the attempt with COMMIT.
  await db.transaction(async (tx) => {
    await Promise.all([
      tx.query(upsert, [id('counter'), body]),
      tx.query(upsert, [id('key'), body]),
      tx.query(read, [id('paid')]),
    ]);
    await tx.queryAndCommit(upsert, [id('attempt'), body]);
  });
  // 2: the claim with BEGIN; the card; the charge with COMMIT.
  await db.transaction(async (tx) => {
    await tx.query(upsert, [id('session'), body]);
    await tx.query(upsert, [id('card'), body]);
    await tx.queryAndCommit(touch, [id('session')]);
  });
  // 3: the processor's record, autocommit.
  await db.query(upsert, [id('ledger'), body]);
  // 4: transaction row and session marked paid with BEGIN; COMMIT on its own.
  await db.transaction(async (tx) => {
    await Promise.all([tx.query(upsert, [id('transaction'), body]), tx.query(touch, [id('session')])]);
  });
  // 5: attempt ended and payment recorded with BEGIN; the key's answer with COMMIT.
  const { rows } = await db.transaction(async (tx) => {
    await Promise.all([tx.query(touch, [id('attempt')]), tx.query(upsert, [id('payment'), body])]);
    return tx.queryAndCommit<{ n: string }>(touch, [id('key')]);
  });
  return Number(rows[0]!.n);
}

const SHAPES = { pay: payShape, five: fiveShape, http: async () => 0 };
const shapeName = (process.env.FLOOR_SHAPE ?? 'pay') as keyof typeof SHAPES;
const shape = SHAPES[shapeName];
if (!shape) throw new Error(`FLOOR_SHAPE must be one of ${Object.keys(SHAPES).join(', ')}`);

const server = http.createServer({ keepAlive: true }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { card?: { number?: string } };
    const key = crypto.randomUUID();
    shape(key, String(body.card?.number?.length ?? 0)).then(
      (n) => {
        const answer = Buffer.from(JSON.stringify({ status: 'succeeded', id: key, n }));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
        res.end(answer);
      },
      (err: unknown) => {
        res.writeHead(500).end(String(err));
      },
    );
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
if (typeof address !== 'object' || address === null) throw new Error('no address');
const stopProfiling = await profileWhileServing('pay-floor');
exitWithParent(async () => {
  await stopProfiling();
  await new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  await db.close();
});
announce(address.port);
