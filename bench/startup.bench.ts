/**
 * Startup time: from spawning the server process until /readyz answers 200, on an existing data
 * directory (embedded database already created and migrated, demo merchant on file), for
 *
 *   compiled  what `npm start` runs: node --enable-source-maps dist/server/payframe.js serve
 *   tsx       what `npm start` ran before the compiled build, and `npm run dev` runs now:
 *             the TypeScript through tsx's loader (node --import tsx server/cli/entry.ts serve)
 *
 *   npm run build && node --import tsx bench/startup.bench.ts            measure, print, record
 *   node --import tsx bench/startup.bench.ts --no-record --runs=3        measure and print only
 *
 * The server is compiled again first (scripts/build-server.ts), so both variants run the same source;
 * the widget's Vite build must exist (dist/widget), as it does for `npm start`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../scripts/build-server.ts';
import { freePort } from '../test/kit/net.ts';
import { markdownTable, recordSection } from './lib/readme.ts';
import { TEST_SERVER_ENV } from '../test/kit/server-env.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECTION = '## Startup time: compiled server vs TypeScript through tsx';
const args = process.argv.slice(2);
const RUNS = Number(args.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 9);
const RECORD = !args.includes('--no-record');

const VARIANTS = {
  compiled: ['--enable-source-maps', 'dist/server/payframe.js', 'serve'],
  tsx: ['--import', 'tsx', 'server/cli/entry.ts', 'serve'],
} as const;
type Variant = keyof typeof VARIANTS;

interface Sample {
  /** Wall time from spawn until /readyz answered 200. */
  wallMs: number;
  /** The server process's user + system CPU time at that moment. */
  cpuMs: number;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of a process, in ms (/proc/<pid>/stat fields 14 and 15). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

async function ready(url: string): Promise<boolean> {
  try {
    const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) });
    await r.arrayBuffer();
    return r.status === 200;
  } catch {
    return false;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

async function startOnce(variant: Variant, dataDir: string): Promise<Sample> {
  const port = await freePort();
  const demoPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = fs.openSync(path.join(dataDir, `${variant}.log`), 'a');
  const started = performance.now();
  const child = spawn(process.execPath, [...VARIANTS[variant]], {
    cwd: ROOT,
    // As a service manager starts it: production, default log level, the log to a file.
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DEMO_PORT: String(demoPort),
      DATA_DIR: dataDir,
      ...TEST_SERVER_ENV,
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  try {
    const deadline = started + 60_000;
    while (!(await ready(url))) {
      if (child.exitCode !== null) throw new Error(`${variant} exited before it was ready; see ${dataDir}`);
      if (performance.now() > deadline) throw new Error(`${variant} not ready within 60 s; see ${dataDir}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return { wallMs: performance.now() - started, cpuMs: cpuMs(child.pid!) };
  } finally {
    await stop(child);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const ms = (x: number) => Math.round(x).toLocaleString('en-US');

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'widget', 'index.html'))) {
    throw new Error('The widget is not built: run `npm run build` first.');
  }
  await buildServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payframe-startup-'));
  try {
    // The first start creates the database, runs the migrations and makes the demo merchant.
    const first = await startOnce('compiled', dataDir);
    process.stdout.write(`first start (new data directory): ${ms(first.wallMs)} ms\n`);
    const samples: Record<Variant, Sample[]> = { compiled: [], tsx: [] };
    for (let i = 0; i < RUNS; i++) {
      // Alternate which goes first, so a slow moment of the machine does not fall on one side only.
      const order: Variant[] = i % 2 ? ['compiled', 'tsx'] : ['tsx', 'compiled'];
      for (const v of order) {
        const s = await startOnce(v, dataDir);
        samples[v].push(s);
        process.stdout.write(
          `run ${i + 1} ${v.padEnd(8)} ${ms(s.wallMs).padStart(6)} ms  (CPU ${ms(s.cpuMs)} ms)\n`,
        );
      }
    }
    const rows = (['tsx', 'compiled'] as const).map((v) => {
      const wall = samples[v].map((s) => s.wallMs);
      return [
        v === 'tsx' ? 'before: TypeScript through tsx' : 'after: compiled (`npm start`)',
        ms(median(wall)),
        `${ms(Math.min(...wall))} – ${ms(Math.max(...wall))}`,
        ms(median(samples[v].map((s) => s.cpuMs))),
      ];
    });
    const ratio = (f: (s: Sample) => number) =>
      (median(samples.tsx.map(f)) / median(samples.compiled.map(f))).toFixed(2);
    const table = markdownTable(
      ['server process', 'to /readyz, median ms', 'min – max ms', 'CPU to /readyz, median ms'],
      [false, true, true, true],
      rows,
    );
    const summary = `Compiled over tsx: ${ratio((s) => s.wallMs)}× faster to /readyz (wall), ${ratio((s) => s.cpuMs)}× less CPU.`;
    process.stdout.write(`\n${table}\n\n${summary}\n`);
    if (RECORD) {
      const section = `${SECTION}

Recorded ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${process.platform}/${process.arch}, the shared
2-core machine (other work running beside it). Command: \`npm run build && node --import tsx
bench/startup.bench.ts\` (\`--runs=N\`, default 9; \`--no-record\` prints only).

${table}

${summary} Wall time follows the machine's load (other
processes ran beside these); the CPU column is the steadier comparison.

Method:

- One data directory (embedded PGlite database), created by a first start that is not counted
  (${ms(first.wallMs)} ms here: migrations and the demo merchant); every measured start finds it
  migrated, as a restart of \`npm start\` does.
- Each start is a new process, \`NODE_ENV=production\`, the default log level, its log to a file;
  timed from spawn until \`GET /readyz\` (a database round trip) answers 200, polled every 5 ms; CPU
  is the process's user + system time at that moment (\`/proc/<pid>/stat\`). Then SIGTERM, and the
  next start waits for the exit. The two variants alternate which goes first in each round.
- before: \`node --import tsx server/cli/entry.ts serve\`, the TypeScript through tsx's loader, as
  \`npm start\` ran the server before it was compiled (today \`npm run dev\`); after: \`node
  --enable-source-maps dist/server/payframe.js serve\`, what \`npm start\` runs. npm's own start-up
  and the \`prestart\` build check are outside both figures (before, \`npm start\` also rebuilt the
  pages with Vite on every start; it no longer builds).
- What remains of a start is mostly not Payframe's code: in a CPU profile of one compiled start
  (\`--cpu-prof\`), PGlite's WebAssembly (compiling it and booting its Postgres) takes the largest
  share, then loading the packages from node_modules, which the build leaves as they are.
`;
      recordSection(path.join(ROOT, 'bench', 'README.md'), SECTION, section);
      process.stdout.write('Recorded in bench/README.md.\n');
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
