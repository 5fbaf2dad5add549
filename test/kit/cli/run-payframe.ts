/** The real `payframe` command (bin/payframe.js) in a child process, run as an operator runs it. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_SERVER_ENV } from '../server-env.ts';

export const PAYFRAME_BIN = fileURLToPath(new URL('../../../bin/payframe.js', import.meta.url));

export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** What the command reads on standard input (closed after it). */
  stdin?: string;
  /** The environment `env` is laid over: this process's unless given (the command's own only). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Where it runs (its `.env`, its default ./data); this process's working directory unless given. */
  cwd?: string;
}

/** Runs `payframe …args` on the embedded database unless `env` names another; resolves at its exit. */
export function runPayframe(
  args: string[],
  env: Record<string, string> = {},
  { stdin = '', baseEnv = process.env, cwd }: RunOptions = {},
): Promise<CommandRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [PAYFRAME_BIN, ...args], {
      cwd,
      env: { ...baseEnv, ...TEST_SERVER_ENV, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
