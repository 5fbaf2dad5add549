/**
 * bench/README.md's "SOAP on the real server" section (bench/server.bench.ts): the figures of a
 * "before" and an "after" run kept in a comment at the section's end, so recording one keeps the
 * other, and the tables rendered from them.
 */
import fs from 'node:fs';
import { markdownTable } from './readme.ts';

export const SECTION = '## SOAP on the real server: CPU per request against bare node:http and node-soap';
const MARK = '<!-- server.bench.ts figures: ';
const CONNECTIONS_TEXT = '32 connections';

/** One measurement of one server: what it answered and what CPU it used. */
export interface Measured {
  requests: number;
  seconds: number;
  cpuSeconds: number;
  p50: number;
  p99: number;
}

type ServerName = 'Payframe' | 'node-soap' | 'node:http';
/** operation → server → one measurement per round. */
type ByOperation = Record<string, Record<ServerName, Measured[]>>;

export interface Figures {
  date: string;
  node: string;
  /** The commit measured, and anything to say about it. */
  code?: string;
  /** The server's entry: bin/payframe.js (source through tsx) or dist/server/payframe.js (compiled). */
  entry?: string;
  pglite?: ByOperation;
  postgres?: ByOperation;
}

interface Stored {
  before?: Figures;
  after?: Figures;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const cpuPerRequest = (runs: Measured[]) => median(runs.map((m) => (m.cpuSeconds * 1e6) / m.requests));
const rps = (runs: Measured[]) => median(runs.map((m) => m.requests / m.seconds));
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const x = (n: number) => `${n.toFixed(1)}×`;

function readStored(readme: string): Stored {
  const text = fs.readFileSync(readme, 'utf8');
  const at = text.indexOf(MARK);
  if (at < 0) return {};
  const end = text.indexOf(' -->', at);
  return JSON.parse(text.slice(at + MARK.length, end)) as Stored;
}

/** Payframe's CPU per request on the smallest call over bare node:http's, per database. */
export function smallestCallRatio(f: Figures, db: 'pglite' | 'postgres'): number | undefined {
  const runs = f[db]?.Verify3DSecureMerchant;
  return runs ? cpuPerRequest(runs.Payframe) / cpuPerRequest(runs['node:http']) : undefined;
}

export function figuresTable(f: Figures): string {
  const header = [
    'Database',
    'Operation',
    'node:http µs/req',
    'node-soap µs/req',
    'Payframe µs/req',
    'Payframe ÷ node:http',
    'node-soap ÷ Payframe',
    'Payframe req/s',
  ];
  const body: string[][] = [];
  for (const db of ['pglite', 'postgres'] as const) {
    for (const [op, runs] of Object.entries(f[db] ?? {})) {
      const [bare, ns, pf] = [runs['node:http'], runs['node-soap'], runs.Payframe].map(cpuPerRequest);
      body.push([
        db === 'pglite' ? 'PGlite' : 'PostgreSQL',
        op,
        fmt(bare!),
        fmt(ns!),
        fmt(pf!),
        `**${x(pf! / bare!)}**`,
        x(ns! / pf!),
        fmt(rps(runs.Payframe)),
      ]);
    }
  }
  return markdownTable(header, [false, false, true, true, true, true, true, true], body);
}

function slotText(name: string, f: Figures | undefined): string {
  if (!f) return `### ${name}\n\nNot recorded yet.`;
  const entry = f.entry ?? 'bin/payframe.js';
  return `### ${name}\n\nRecorded ${f.date}, Node ${f.node}${f.code ? `, ${f.code}` : ''}; \`node ${entry} serve\`.\n\n${figuresTable(f)}`;
}

/** The section with `figures` stored as `slot`, and the table of this run alone. */
export function renderSection(
  readme: string,
  slot: 'before' | 'after',
  figures: Figures,
): { markdown: string; table: string } {
  const stored = readStored(readme);
  stored[slot] = figures;
  const markdown = `${SECTION}

Issue 18: what a merchant's integration meets is the real server, and there each call pays for
more than the wire. CPU time of the server process per request for the smallest call
(Verify3DSecureMerchant), a list call (GetTransactionHistories, 50 items) and a card sale
(ProcessTransaction), against a bare node:http server answering the same bytes and node-soap
answering the same data, in the same run. Goal: the smallest authenticated call within 5× of bare
node:http.

Command: \`node --import tsx bench/server.bench.ts\` (\`--as=before\` records the "before" table;
\`--entry=dist\` measures the compiled server \`npm start\` runs, after \`npm run build\`; \`--no-record\`,
\`--db=pglite|postgres\`, \`--only=OPERATION\`, \`--cpu-prof=DIR\`, \`--seconds=N\`).

${slotText('Before', stored.before)}

${slotText('After', stored.after)}

Reading it: the smallest call's authentication and merchant read come from memory (issue 18 §1,
\`server/gateway/merchants/merchant-cache.ts\`): no database round trip, so PGlite and PostgreSQL
cost the same. The wire layer's own work is down too (issue 18 §2, the section "SOAP throughput"
above): one request log line instead of Fastify's two, redacted by one walk of its fields instead of
pino's \`redact\` (≈55 µs a line), no child logger per request, the XML parsed once instead of twice,
metrics and response values without per-call overhead. A CPU profile of the
compiled server under this load (\`--entry=dist --cpu-prof=DIR --seconds=10
--only=Verify3DSecureMerchant --db=pglite\`, samples of the serving time only) shows where the rest
goes: about a fifth in the kernel's socket write (\`writev\`), about a sixth in the request's one
log line at the default level \`info\` (JSON, time, the card-number scrub, the synchronous write to
the log), a tenth in Fastify's routing, a twentieth each in the credential check before the body
(issue 13) and in the XML read, a few per cent in the embedded database's periodic background work
(recovery, expiry, claim sweep, reconciliation), and the rest spread over Fastify's hooks, the
handler and Node's HTTP parser. The goal (5×) is not quite reached: 5.6–6.0× in these runs; what
is left above the floor is mostly the log line and Fastify itself. The list call and the sale still
spend most of their time in their statements (on PGlite, in the server's own thread).

Method:

- Payframe is \`payframe serve\` (the entry each table names: \`bin/payframe.js\`, the TypeScript source,
  or \`dist/server/payframe.js\`, the compiled server \`npm start\` runs) with \`npm start\`'s configuration:
  \`NODE_ENV=production\`, the default log level (\`info\`) into a file, a new \`DATA_DIR\`, and on
  PostgreSQL \`DATABASE_URL\` naming a new database. Every call carries the demo merchant's
  credential (HTTP Basic, as the first start writes it to \`DATA_DIR/demo-merchant.json\`) and is
  checked for real; 50 sales are made first, so the list call answers 50 items; each sale of the
  measurement is a new approved card sale (4242 4242 4242 4242) recorded in the database.
- node:http: a bare \`http.createServer\` that reads the body and answers Payframe's response to the
  same call as a constant (\`bench/servers/ceiling-server.ts\`): the floor of one Node process here.
- node-soap 1.13.0: \`soap.listen\` with the WSDL Payframe serves, answering each operation with the
  result node-soap's own client read from Payframe for the same call (\`bench/servers/node-soap-server.ts\`);
  no credential check, no database: the wire alone.
- Each server in its own process; this process generates the load with autocannon: the same SOAP 1.1
  POST (body, \`SOAPAction\`, \`Authorization\`) to all three, ${CONNECTIONS_TEXT}, keep-alive; a 2 s
  warm-up per server and operation, then 3 rounds of 5 s in the order Payframe, node-soap,
  node:http. Every answer is checked once before (HTTP 200; \`Verify3DSecureMerchantResult\`; 50
  \`TransactionHistoryID\`s; \`ResponseCode\` 00), and any error or non-2xx fails the run.
- "µs/req" is the server process's user + system CPU time over a round (\`/proc/<pid>/stat\`) per
  answered request, the median of the rounds: the cost of one request with most of the machine's
  noise taken out. On PostgreSQL the database server's own CPU is not in it. The machine is shared
  (2 cores, the load generator on them too): compare ratios within one run, never absolute figures
  across runs.

${MARK}${JSON.stringify(stored)} -->
`;
  return { markdown, table: figuresTable(figures) };
}
