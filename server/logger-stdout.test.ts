/**
 * The server's log on standard output (server/logger.ts `stdoutLines`): the lines of one turn of the
 * event loop go out in one write, in order, and none is lost when the process exits, whether by
 * process.exit() or an uncaught exception.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const LOGGER = new URL('./logger.ts', import.meta.url).pathname;

function run(script: string) {
  const code = `import { createLogger } from ${JSON.stringify(LOGGER)};
const writes = [];
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => { writes.push(String(chunk).split('\\n').length - 1); return write(chunk, ...rest); };
process.on('exit', () => process.stderr.write('WRITES' + JSON.stringify(writes) + '\\n'));
const log = createLogger({ level: 'info' });
${script}`;
  const res = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    encoding: 'utf8',
  });
  const lines = res.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { msg: string });
  return {
    msgs: lines.map((l) => l.msg),
    writes: JSON.parse(/WRITES(.*)/.exec(res.stderr)?.[1] ?? 'null') as unknown,
  };
}

describe('the log on standard output', () => {
  it('writes one turn’s lines at once, in order, then the next turn’s', () => {
    const { msgs, writes } = run(`
log.info('a'); log.info('b'); log.info('c 4242424242424242');
setTimeout(() => log.info('d'), 5);`);
    expect(msgs).toEqual(['a', 'b', 'c ************4242', 'd']);
    expect(writes).toEqual([3, 1]);
  });

  it('writes what is pending when the process exits or throws', () => {
    expect(run(`log.info('a'); log.warn('b'); process.exit(3);`).msgs).toEqual(['a', 'b']);
    expect(run(`log.info('a'); throw new Error('boom');`).msgs).toEqual(['a']);
  });
});
