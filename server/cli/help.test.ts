/**
 * `payframe help` lists every option of every command (issue 14 §13): each option a command's
 * parseArgs accepts (read from the command files themselves) is named in the help text.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HELP } from './main.ts';
import { MERCHANT_UPDATE_OPTIONS } from './merchant-update.ts';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const COMMAND_FILES = [
  'main.ts',
  'gateway-commands.ts',
  'keys-command.ts',
  'merchant-update.ts',
  'merchant-secret.ts',
  'backup-command.ts',
];

/** The option names declared as `name: { type: … }` in a file's parseArgs tables. */
function declaredOptions(source: string): string[] {
  return [...source.matchAll(/^\s*'?([a-z0-9-]+)'?: \{ type: '(?:string|boolean)'/gm)].map((m) => m[1]!);
}

describe('payframe help', () => {
  it('names every option every command accepts', () => {
    const options = new Set(COMMAND_FILES.flatMap((f) => declaredOptions(fs.readFileSync(here(f), 'utf8'))));
    // The scan finds the tables (a scan that finds nothing cannot pass).
    expect(options.size).toBeGreaterThan(20);
    for (const name of Object.keys(MERCHANT_UPDATE_OPTIONS)) expect(options).toContain(name);
    const missing = [...options].filter((name) => !HELP.includes(`--${name}`));
    expect(missing).toEqual([]);
  });
});
