/**
 * SOAP on the real server (bench/README.md, "SOAP on the real server"): CPU per request of
 * `payframe serve` — the entry `npm start` runs, its configuration, the demo merchant's credential
 * checked for real, the real database — for the smallest call (Verify3DSecureMerchant), a list call
 * (GetTransactionHistories, 50 items) and a ProcessTransaction sale, on PGlite and on PostgreSQL,
 * each against a bare node:http server answering the same bytes and node-soap answering the same
 * data, in the same run.
 *
 *   node --import tsx bench/server.bench.ts                   measure both databases, record as "after"
 *   node --import tsx bench/server.bench.ts --as=before       record as "before"
 *   node --import tsx bench/server.bench.ts --no-record       print only
 *   node --import tsx bench/server.bench.ts --db=pglite       one database (also --db=postgres)
 *   node --import tsx bench/server.bench.ts --only=OPERATION  one operation (implies --no-record)
 *   node --import tsx bench/server.bench.ts --cpu-prof=DIR    Payframe's CPU profile, written at its exit
 *                                                             (start-up included: lengthen the rounds)
 *   node --import tsx bench/server.bench.ts --entry=dist      the compiled server (`npm run build` first);
 *                                                             default: bin/payframe.js, the source
 *   node --import tsx bench/server.bench.ts --seconds=N       rounds of N s (default 5; implies --no-record)
 *
 * PostgreSQL: TEST_DATABASE_URL, DATABASE_URL or postgres://postgres@127.0.0.1:5432/test; a new
 * database per run, dropped afterwards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import soap from 'soap';
import { findOperation } from '../shared/contract/index.ts';
import { readDemoMerchant } from '../test/system/crash/servers.ts';
import { request } from '../test/kit/gateway/soap-call.ts';
import { encodeSoapRequest } from '../server/soap/codec/messages.ts';
import { cpuSeconds, freshDatabase } from './lib/payframe-servers.ts';
import { type ChildServer, startPayframeServe, startReference } from './lib/reference-servers.ts';
import { type Figures, type Measured, renderSection, SECTION } from './lib/server-report.ts';
import { recordSection } from './lib/readme.ts';

const README = path.join(path.dirname(fileURLToPath(import.meta.url)), 'README.md');
const NS = 'http://tempuri.org/';
const SERVICE = '/TransactionService.asmx';
const CONNECTIONS = 32;
const DURATION_S = Number(process.argv.find((a) => a.startsWith('--seconds='))?.slice(10) ?? 5);
const WARMUP_S = 2;
const ROUNDS = 3;
const SEEDED_SALES = 50;
const ADMIN_URL =
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const args = process.argv.slice(2);
const arg = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const only = arg('only');
const cpuProfDir = arg('cpu-prof');
const slot = arg('as') === 'before' ? 'before' : 'after';
const entry = arg('entry') === 'dist' ? 'dist' : 'bin';
const record =
  !args.includes('--no-record') && only === undefined && cpuProfDir === undefined && DURATION_S === 5;
const databases = (arg('db') ? [arg('db')] : ['pglite', 'postgres']) as ('pglite' | 'postgres')[];

const SERVERS = ['Payframe', 'node-soap', 'node:http'] as const;
type ServerName = (typeof SERVERS)[number];

interface Case {
  operation: string;
  body: string;
  check(body: string): void;
}

const log = (line: string) => process.stdout.write(`${line}\n`);
const iso = (d: Date) => d.toISOString().slice(0, 19);

function soapBody(op: string, params: Record<string, unknown>): string {
  const operation = findOperation(op);
  if (!operation) throw new Error(`no operation ${op}`);
  return encodeSoapRequest(operation, params, NS, '1.1');
}

function cases(merchantId: string, from: Date, to: Date): Case[] {
  const expiry = `12/${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`;
  const all: Case[] = [
    {
      operation: 'Verify3DSecureMerchant',
      body: soapBody('Verify3DSecureMerchant', { merchantID: merchantId }),
      check(b) {
        if (!/<(?:\w+:)?Verify3DSecureMerchantResult>(true|false)</.test(b)) throw new Error('no result');
      },
    },
    {
      operation: 'GetTransactionHistories',
      body: soapBody('GetTransactionHistories', {
        startDate: iso(from),
        endDate: iso(to),
        merchantID: merchantId,
      }),
      check(b) {
        const n = b.match(/<(?:\w+:)?TransactionHistoryID>\d+</g)?.length ?? 0;
        if (n !== SEEDED_SALES)
          throw new Error(`expected ${SEEDED_SALES} TransactionHistory items, got ${n}`);
      },
    },
    {
      operation: 'ProcessTransaction',
      body: soapBody('ProcessTransaction', {
        request: request({
          MerchantID: merchantId,
          CardNumber: '4242424242424242',
          ExpirationDate: expiry,
          Amount: '12.34',
          NameOnCard: 'Bench Shopper',
        }),
      }),
      check(b) {
        if (!/<(?:\w+:)?ResponseCode>00</.test(b)) throw new Error(`not approved: ${b.slice(0, 600)}`);
      },
    },
  ];
  return all;
}

function headersFor(c: Case, authorization: string): Record<string, string> {
  return {
    'content-type': 'text/xml; charset=utf-8',
    soapaction: `"${NS}${c.operation}"`,
    authorization,
  };
}

async function answer(url: string, c: Case, authorization: string): Promise<string> {
  const res = await fetch(`${url}${SERVICE}`, {
    method: 'POST',
    headers: headersFor(c, authorization),
    body: c.body,
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${url} ${c.operation}: HTTP ${res.status}: ${body.slice(0, 600)}`);
  c.check(body);
  return body;
}

async function load(
  server: ChildServer,
  c: Case,
  authorization: string,
  duration: number,
): Promise<Measured> {
  const cpuBefore = cpuSeconds(server.pid);
  const started = process.hrtime.bigint();
  const r = await autocannon({
    url: `${server.url}${SERVICE}`,
    method: 'POST',
    headers: headersFor(c, authorization),
    body: c.body,
    connections: CONNECTIONS,
    duration,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  const failures = r.errors + r.timeouts + r.non2xx;
  if (failures > 0) throw new Error(`${server.url} ${c.operation}: ${failures} failed requests`);
  return { requests: r.requests.total, seconds, cpuSeconds: cpu, p50: r.latency.p50, p99: r.latency.p99 };
}

/** The results as node-soap's own client reads them from Payframe: what its server then answers. */
async function nodeSoapResults(
  url: string,
  merchant: { merchantId: string; transactionKey: string },
  list: Case[],
) {
  const client = await soap.createClientAsync(`${url}${SERVICE}?WSDL`);
  client.setSecurity(new soap.BasicAuthSecurity(merchant.merchantId, merchant.transactionKey));
  const results: Record<string, unknown> = {};
  for (const c of list) {
    // The same call as the benchmark's body, through node-soap's client: its parsed result object.
    const [result] = (await client[`${c.operation}Async`]({}, { postProcess: () => c.body })) as [unknown];
    results[c.operation] = result;
  }
  return results;
}

async function measureDatabase(kind: 'pglite' | 'postgres'): Promise<Figures['pglite']> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-bench-server-'));
  const database = kind === 'postgres' ? await freshDatabase(ADMIN_URL, 'payframe_bench_server') : null;
  const started: ChildServer[] = [];
  try {
    log(`${kind}: starting payframe serve …`);
    const payframe = await startPayframeServe({
      dataDir,
      databaseUrl: database?.url ?? null,
      entry,
      ...(cpuProfDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpuProfDir)}`] } : {}),
    });
    started.push(payframe);
    const merchant = readDemoMerchant(dataDir);
    const authorization = `Basic ${Buffer.from(`${merchant.merchantId}:${merchant.transactionKey}`).toString('base64')}`;
    const from = new Date(Date.now() - 60_000);
    const sale = cases(merchant.merchantId, from, from).find((c) => c.operation === 'ProcessTransaction')!;
    for (let i = 0; i < SEEDED_SALES; i++) await answer(payframe.url, sale, authorization);
    const list = cases(merchant.merchantId, from, new Date(Date.now() + 1000)).filter(
      (c) => only === undefined || c.operation === only,
    );
    await new Promise((r) => setTimeout(r, 1100)); // later sales fall outside the list's range

    const responses: Record<string, string> = {};
    for (const c of list) responses[`${NS}${c.operation}`] = await answer(payframe.url, c, authorization);
    const nodeSoap = await startReference('node-soap-server.ts', [`${payframe.url}${SERVICE}?WSDL`], {
      BENCH_NODE_SOAP_RESULTS: JSON.stringify(await nodeSoapResults(payframe.url, merchant, list)),
    });
    started.push(nodeSoap);
    const bare = await startReference('ceiling-server.ts', [], {
      BENCH_CEILING_RESPONSES: JSON.stringify(responses),
    });
    started.push(bare);
    const servers: Record<ServerName, ChildServer> = {
      Payframe: payframe,
      'node-soap': nodeSoap,
      'node:http': bare,
    };

    const figures: Figures['pglite'] = {};
    for (const c of list) {
      for (const s of SERVERS) await answer(servers[s].url, c, authorization);
      for (const s of SERVERS) await load(servers[s], c, authorization, WARMUP_S);
      const runs: Record<ServerName, Measured[]> = { Payframe: [], 'node-soap': [], 'node:http': [] };
      for (let round = 1; round <= ROUNDS; round++) {
        for (const s of SERVERS) {
          const m = await load(servers[s], c, authorization, DURATION_S);
          runs[s].push(m);
          log(
            `  ${kind} ${c.operation} round ${round} ${s.padEnd(10)} ${Math.round(m.requests / m.seconds)} req/s, ` +
              `${Math.round((m.cpuSeconds * 1e6) / m.requests)} µs CPU/req`,
          );
        }
      }
      figures[c.operation] = runs;
    }
    return figures;
  } finally {
    for (const s of started.reverse()) await s.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const result: Figures = {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    entry: entry === 'dist' ? 'dist/server/payframe.js' : 'bin/payframe.js',
  };
  for (const kind of databases) result[kind] = await measureDatabase(kind);
  const section = renderSection(README, slot, result);
  log(`\n${section.table}`);
  if (record) {
    recordSection(README, SECTION, section.markdown);
    log(`\nRecorded as "${slot}" in ${path.relative(process.cwd(), README)}.`);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
