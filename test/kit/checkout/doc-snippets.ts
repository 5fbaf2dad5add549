/**
 * Runs the copy-paste snippets of docs/merchant-guide.md as merchants would: each fenced block
 * after a `<!-- snippet: name -->` marker, in a real `node`, `/usr/bin/python3` or `/bin/sh` process.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tempDir } from '../databases.ts';

const GUIDE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/merchant-guide.md');

export function snippet(name: string): string {
  const text = fs.readFileSync(GUIDE, 'utf8');
  const marker = `<!-- snippet: ${name} -->`;
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`docs/merchant-guide.md has no snippet ${name}`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(text.slice(at + marker.length));
  if (!block?.[1]) throw new Error(`snippet ${name} has no code block`);
  return block[1];
}

/** Runs a Node snippet with `driver` appended (an ES module); answers its standard output, trimmed. */
export function runNode(name: string, driver: string, env: Record<string, string>): string {
  const file = path.join(tempDir('payframe-snippet-'), `${name}.mjs`);
  fs.writeFileSync(file, `${snippet(name)}\n${driver}\n`);
  return execFileSync(process.execPath, [file], { env: { ...process.env, ...env }, encoding: 'utf8' }).trim();
}

export function runPython(name: string, driver: string, env: Record<string, string>): string {
  const file = path.join(tempDir('payframe-snippet-'), `${name.replace(/-/g, '_')}.py`);
  fs.writeFileSync(file, `${snippet(name)}\n${driver}\n`);
  return execFileSync('/usr/bin/python3', [file], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  }).trim();
}

/**
 * Runs a shell snippet (its curl calls) with `env`; answers its standard output, trimmed. Not
 * synchronous: the server it calls may run in this very process.
 */
export async function runShell(name: string, env: Record<string, string>): Promise<string> {
  const file = path.join(tempDir('payframe-snippet-'), `${name}.sh`);
  fs.writeFileSync(file, `set -eu\n${snippet(name)}`);
  const { stdout } = await promisify(execFile)('/bin/sh', [file], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return stdout.trim();
}
