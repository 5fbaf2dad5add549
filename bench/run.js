// `npm run bench`: runs every benchmark in bench/ (files named *.bench.js) one after the other.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.dirname(new URL(import.meta.url).pathname);
const benches = fs.readdirSync(dir).filter((f) => f.endsWith('.bench.js') || f.endsWith('.bench.ts'));
if (benches.length === 0) {
  process.stdout.write('No benchmarks yet.\n');
  process.exit(0);
}
for (const b of benches) {
  process.stdout.write(`\n=== ${b} ===\n`);
  // The servers the benchmarks start read no .env of the clone (test/kit/server-env.ts).
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, b)], {
    stdio: 'inherit',
    env: { ...process.env, PAYFRAME_ENV_FILE: 'none' },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
