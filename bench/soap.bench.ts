/**
 * SOAP 1.1 throughput, Payframe against node-soap, in one run (bench/README.md records the result).
 *
 * Two child processes serve the same WSDL operations with the same data: the real Payframe app
 * (bench/servers/payframe-server.ts) and `soap.listen` with the WSDL Payframe serves
 * (bench/servers/node-soap-server.ts). This process is the load generator (autocannon), so serving
 * and load generation do not share an event loop. Each operation is checked once per server (the
 * list answer must carry all 50 items) before it is measured; a case with errors, timeouts or non-2xx
 * answers fails the run.
 *
 *   node --import tsx bench/soap.bench.ts                  measure, print, record in bench/README.md
 *   node --import tsx bench/soap.bench.ts --no-record      measure and print only
 *   node --import tsx bench/soap.bench.ts --cpu-prof=DIR   also write DIR/payframe.cpuprofile and
 *                                                          DIR/node-soap.cpuprofile, sampled while serving
 *   node --import tsx bench/soap.bench.ts --only=OPERATION  measure one operation
 *   node --import tsx bench/soap.bench.ts --ceiling        add a reference: bare node:http answering
 *                                                          Payframe's response as a constant (no XML
 *                                                          work), what one Node process can serve here
 * Profiling or measuring one operation implies --no-record.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { HISTORY_ITEMS } from './servers/fixture.ts';
import { markdownTable, recordSection } from './lib/readme.ts';

const DIR = path.dirname(fileURLToPath(import.meta.url));
const README = path.join(DIR, 'README.md');
const SECTION = '## SOAP throughput: Payframe vs node-soap';

const CONNECTIONS = 50;
const DURATION_S = 6;
const WARMUP_S = 2;
const ROUNDS = 3;
const NAMESPACE = 'http://tempuri.org/';
const SERVICE_PATH = '/TransactionService.asmx';

const args = process.argv.slice(2);
const cpuProfDir = args.find((a) => a.startsWith('--cpu-prof='))?.slice('--cpu-prof='.length);
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const ceiling = args.includes('--ceiling');
const record = !args.includes('--no-record') && cpuProfDir === undefined && only === undefined;

const CEILING = 'node:http constant';
type ServerName = 'Payframe' | 'node-soap' | typeof CEILING;
const SERVERS: ServerName[] = ceiling ? ['Payframe', 'node-soap', CEILING] : ['Payframe', 'node-soap'];

interface Case {
  operation: string;
  label: string;
  body: string;
  /** Throws unless a response body is the full, expected answer. */
  check(body: string): void;
}

function envelope(inner: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    '<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
    'xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
    `<soap:Body>${inner}</soap:Body></soap:Envelope>`
  );
}

const ALL_CASES: Case[] = [
  {
    operation: 'GetTransactionHistories',
    label: `GetTransactionHistories (${HISTORY_ITEMS} items)`,
    body: envelope(
      `<GetTransactionHistories xmlns="${NAMESPACE}"><startDate>2024-01-01T00:00:00</startDate>` +
        '<endDate>2024-02-01T00:00:00</endDate><merchantID>4242</merchantID></GetTransactionHistories>',
    ),
    check(body) {
      const items = body.match(/<(?:[\w.-]+:)?TransactionHistory>/g)?.length ?? 0;
      const ids = body.match(/<(?:[\w.-]+:)?TransactionHistoryID>\d+</g)?.length ?? 0;
      if (items !== HISTORY_ITEMS || ids !== HISTORY_ITEMS) {
        throw new Error(`expected ${HISTORY_ITEMS} TransactionHistory items, got ${items} (${ids} ids)`);
      }
    },
  },
  {
    operation: 'Verify3DSecureMerchant',
    label: 'Verify3DSecureMerchant',
    body: envelope(
      `<Verify3DSecureMerchant xmlns="${NAMESPACE}"><merchantID>4242</merchantID></Verify3DSecureMerchant>`,
    ),
    check(body) {
      if (!/<(?:[\w.-]+:)?Verify3DSecureMerchantResult>true</.test(body)) {
        throw new Error('expected <Verify3DSecureMerchantResult>true</…>');
      }
    },
  },
];

const CASES = ALL_CASES.filter((c) => only === undefined || c.operation === only);
if (CASES.length === 0) throw new Error(`--only: no operation ${only}`);

function headers(c: Case): Record<string, string> {
  return { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NAMESPACE}${c.operation}"` };
}

// ---- child servers ---------------------------------------------------------------------------

interface Child {
  name: ServerName;
  process: ChildProcess;
  url: string;
}

const children: ChildProcess[] = [];

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/**
 * Closes each server's stdin, which makes it close and exit (the Payframe one removes its PGlite
 * directory); one that has not exited after 10 s is killed.
 */
async function stopChildren(): Promise<void> {
  await Promise.all(
    children.filter(running).map(async (child) => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }),
  );
}
// Last resort, if this process exits some other way: no server outlives the benchmark.
process.on('exit', () => {
  for (const child of children.filter(running)) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopChildren().finally(() => process.exit(130));
  });
}

function startServer(
  name: ServerName,
  script: string,
  extraArgs: string[] = [],
  extraEnv: Record<string, string> = {},
): Promise<Child> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  if (cpuProfDir) env.BENCH_CPU_PROF_DIR = path.resolve(cpuProfDir);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(DIR, 'servers', script), ...extraArgs],
    {
      // stdin stays open: the server exits when it closes, so it cannot outlive this process.
      stdio: ['pipe', 'pipe', 'inherit'],
      env,
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${name} server did not start within 60 s`)), 60_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} server exited (${code ?? signal}) before listening`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      const { port } = JSON.parse(out.slice(0, nl)) as { port: number };
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      resolve({ name, process: child, url: `http://127.0.0.1:${port}${SERVICE_PATH}` });
    });
  });
}

/** CPU seconds (user + system) the process has used so far, from /proc; undefined elsewhere. */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime), counted from the state field (3rd).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

// ---- measuring -------------------------------------------------------------------------------

interface Measurement {
  rps: number;
  /** Requests answered, all status codes. */
  total: number;
  p50: number;
  p99: number;
  failures: number;
  /** Share of one core the server used while measured. */
  serverCpu: number | undefined;
}

async function verify(child: Child, c: Case): Promise<string> {
  const res = await fetch(child.url, { method: 'POST', headers: headers(c), body: c.body });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${child.name} ${c.operation}: HTTP ${res.status}: ${body}`);
  try {
    c.check(body);
  } catch (err) {
    throw new Error(`${child.name} ${c.operation}: ${(err as Error).message}`);
  }
  return body;
}

async function load(child: Child, c: Case, duration: number): Promise<Measurement> {
  const cpuBefore = cpuSeconds(child.process.pid);
  const started = process.hrtime.bigint();
  const r = await autocannon({
    url: child.url,
    method: 'POST',
    headers: headers(c),
    body: c.body,
    connections: CONNECTIONS,
    duration,
  });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuAfter = cpuSeconds(child.process.pid);
  return {
    rps: r.requests.average,
    total: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    failures: r.errors + r.timeouts + r.non2xx,
    serverCpu:
      cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / elapsed,
  };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

interface Row {
  c: Case;
  server: ServerName;
  runs: Measurement[];
}

function summary(row: Row) {
  const cpus = row.runs.map((m) => m.serverCpu).filter((v): v is number => v !== undefined);
  return {
    rps: median(row.runs.map((m) => m.rps)),
    p50: median(row.runs.map((m) => m.p50)),
    p99: median(row.runs.map((m) => m.p99)),
    failures: row.runs.reduce((n, m) => n + m.failures, 0),
    cpu: cpus.length ? median(cpus) : undefined,
    /** Server CPU time per answered request, µs (median over the rounds). */
    cpuPerRequest:
      cpus.length === row.runs.length ? median(row.runs.map((m) => (m.serverCpu! * 1e6) / m.rps)) : undefined,
  };
}

// ---- output ----------------------------------------------------------------------------------

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

function find(rows: Row[], c: Case, server: ServerName): Row {
  const row = rows.find((r) => r.c === c && r.server === server);
  if (!row) throw new Error(`no measurement of ${server} ${c.operation}`);
  return row;
}

function table(rows: Row[]): string {
  const header = [
    'Operation',
    'Server',
    'req/s (avg)',
    'p50 ms',
    'p99 ms',
    'errors + non-2xx',
    'server CPU',
    'CPU µs/req',
  ];
  const body: string[][] = [];
  for (const c of CASES) {
    const sums = new Map(SERVERS.map((s) => [s, summary(find(rows, c, s))]));
    for (const [server, s] of sums) {
      body.push([
        c.label,
        server,
        fmt(s.rps),
        String(s.p50),
        String(s.p99),
        String(s.failures),
        s.cpu === undefined ? 'n/a' : `${Math.round(s.cpu * 100)}%`,
        s.cpuPerRequest === undefined ? 'n/a' : fmt(s.cpuPerRequest),
      ]);
    }
    const ns = sums.get('node-soap')!;
    for (const server of SERVERS.filter((s) => s !== 'node-soap')) {
      const s = sums.get(server)!;
      const bold = server === 'Payframe' ? '**' : '';
      body.push([
        c.label,
        `${bold}${server} / node-soap${bold}`,
        `${bold}${ratio(s.rps, ns.rps)}${bold}`,
        ratio(s.p50, ns.p50),
        ratio(s.p99, ns.p99),
        '',
        '',
        s.cpuPerRequest && ns.cpuPerRequest ? ratio(ns.cpuPerRequest, s.cpuPerRequest) : '',
      ]);
    }
  }
  return markdownTable(header, [false, false, true, true, true, true, true, true], body);
}

function perRoundRatios(rows: Row[]): string {
  return CASES.map((c) => {
    const pf = find(rows, c, 'Payframe');
    const ns = find(rows, c, 'node-soap');
    const rs = pf.runs.map((m, i) => ratio(m.rps, ns.runs[i]!.rps));
    return `${c.operation} ${rs.join(', ')}`;
  }).join('; ');
}

function targetVerdict(rows: Row[]): string {
  const misses = CASES.filter(
    (c) => summary(find(rows, c, 'Payframe')).rps < 2 * summary(find(rows, c, 'node-soap')).rps,
  );
  return misses.length === 0
    ? 'Target (Payframe ≥ 2× node-soap req/s): met on every operation.'
    : `Target (Payframe ≥ 2× node-soap req/s): **not met** on ${misses.map((c) => c.operation).join(' and ')}.`;
}

function readmeSection(rows: Row[], date: string): string {
  return `${SECTION}

Issue: SOAP 1.1 requests per second and p99 latency on a list result and a small result, against a
node-soap server answering the same WSDL operations with the same data. Target: Payframe at least 2×
node-soap's throughput.

Recorded ${date}: Node ${process.version}, ${process.platform}/${process.arch}, the shared 2-core machine
(load generator on the same cores, other work running beside it).
Command: ${
    ceiling
      ? '`node --import tsx bench/soap.bench.ts --ceiling`'
      : '`npm run bench` (or `node --import tsx bench/soap.bench.ts`)'
  }.
Options: \`--no-record\` prints only; \`--only=OPERATION\` measures one operation; \`--ceiling\` adds a
bare node:http reference; \`--cpu-prof=DIR\` writes a CPU profile of each server covering only the
time it serves. p50/p99 ratios are Payframe's latency over node-soap's (below 1×: faster).

${table(rows)}

Throughput ratio Payframe / node-soap per round: ${perRoundRatios(rows)}.

${targetVerdict(rows)}

Method:

- Payframe: the real app from \`buildApp\` (\`server/app.ts\`: security headers, request ids, error
  handling, the Transaction Service plugin) on a PGlite database, logger level \`silent\`, with a
  Transaction Service whose GetTransactionHistories returns a fixed list of ${HISTORY_ITEMS}
  TransactionHistory items and Verify3DSecureMerchant \`true\` (\`bench/servers/payframe-server.ts\`).
- node-soap 1.13.0: \`soap.listen\` on a keep-alive \`http.createServer\` at the same path, with the
  WSDL fetched from Payframe's \`?WSDL\`, answering the same two operations with the same fixture
  (\`bench/servers/node-soap-server.ts\`, \`bench/servers/fixture.ts\`).
${
  ceiling
    ? `- ${CEILING} (reference, not a SOAP server): bare \`node:http\` that reads the body and answers with
  Payframe's response to the operation as a constant (\`bench/servers/ceiling-server.ts\`): what one
  Node process can serve on this machine with no XML work at all.
`
    : ''
}- Each server runs in its own child process; this process generates the load with autocannon
  (programmatic API): the same SOAP 1.1 POST body and \`SOAPAction\` to both, ${CONNECTIONS}
  connections, keep-alive, ${DURATION_S} s per measurement after a ${WARMUP_S} s warm-up of each server
  on each operation. Per operation the order is Payframe, node-soap, repeated ${ROUNDS} times; the table
  shows the median of the rounds. req/s is autocannon's average of its
  per-second samples; latencies are autocannon's percentiles (whole milliseconds).
- Before measuring, one request per server and operation checks the answer: HTTP 200, ${HISTORY_ITEMS}
  \`<TransactionHistory>\` elements each with a \`TransactionHistoryID\`, or
  \`<Verify3DSecureMerchantResult>true</…>\`. A measurement with any error, timeout or non-2xx fails
  the run.
- "server CPU" is the server process's user + system CPU time over the measurement (from
  \`/proc/<pid>/stat\`) divided by its wall time (100% = one core); "CPU µs/req" is that CPU time per
  answered request, the cost of one request with the machine's noise mostly taken out; in a ratio row,
  node-soap's CPU per request over the other server's (above 1×: cheaper than node-soap), which is
  what the throughput ratio would be if each server had a core to itself. A server near
  100% is the bottleneck; well below it, the load generator (on the other core) is. Absolute figures
  depend on the machine and on what else runs on it; only the ratios within one run carry.
`;
}

// ---- main ------------------------------------------------------------------------------------

const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  if (cpuProfDir) fs.mkdirSync(cpuProfDir, { recursive: true });
  log('starting Payframe (real app on PGlite) …');
  const payframe = await startServer('Payframe', 'payframe-server.ts');
  log(`starting node-soap with the WSDL from ${payframe.url}?WSDL …`);
  const nodeSoap = await startServer('node-soap', 'node-soap-server.ts', [`${payframe.url}?WSDL`]);
  const servers = new Map<ServerName, Child>([
    ['Payframe', payframe],
    ['node-soap', nodeSoap],
  ]);
  if (ceiling) {
    const responses: Record<string, string> = {};
    for (const c of CASES) responses[`${NAMESPACE}${c.operation}`] = await verify(payframe, c);
    log(`starting the ${CEILING} reference …`);
    const constant = await startServer(CEILING, 'ceiling-server.ts', [], {
      BENCH_CEILING_RESPONSES: JSON.stringify(responses),
    });
    servers.set(CEILING, constant);
  }
  const server = (name: ServerName) => servers.get(name)!;

  const rows: Row[] = [];
  const served = new Map(SERVERS.map((s) => [s, 0]));
  for (const c of CASES) {
    for (const s of SERVERS) await verify(server(s), c);
    log(`${c.operation}: answers checked; warming up …`);
    for (const s of SERVERS) {
      served.set(s, served.get(s)! + 1 + (await load(server(s), c, WARMUP_S)).total);
    }
    const caseRows = SERVERS.map((name) => ({ c, server: name, runs: [] as Measurement[] }));
    rows.push(...caseRows);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const row of caseRows) {
        const m = await load(server(row.server), c, DURATION_S);
        log(
          `  round ${round} ${row.server.padEnd(18)} ${fmt(m.rps).padStart(7)} req/s  p50 ${m.p50} ms  ` +
            `p99 ${m.p99} ms  failures ${m.failures}`,
        );
        if (m.failures > 0) throw new Error(`${row.server} ${c.operation}: ${m.failures} failed requests`);
        row.runs.push(m);
        served.set(row.server, served.get(row.server)! + m.total);
      }
    }
  }

  await stopChildren();
  log('');
  log(table(rows));
  log('');
  log(`Throughput ratio Payframe / node-soap per round: ${perRoundRatios(rows)}.`);
  log(targetVerdict(rows));
  if (record) {
    recordSection(README, SECTION, readmeSection(rows, new Date().toISOString().slice(0, 10)));
    log(`\nRecorded in ${path.relative(process.cwd(), README)}.`);
  }
  if (cpuProfDir) {
    const counts = SERVERS.map((s) => `${s} ${served.get(s)}`).join(', ');
    log(`\nCPU profiles in ${cpuProfDir}; requests served while profiled: ${counts}`);
  }
}

main().then(
  () => process.exit(0),
  async (err: unknown) => {
    console.error(err);
    await stopChildren();
    process.exit(1);
  },
);
