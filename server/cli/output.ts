/** How CLI commands speak: plain lines for people, one JSON document with --json for scripts. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export interface Output {
  json: boolean;
  /** The command's result: a JSON document with --json, else the human lines. */
  result(data: unknown, lines: string[]): void;
  error(code: string, message: string): void;
}

/** Where output goes: the process's streams, or a command channel's messages (handoff-server.ts). */
export interface Writer {
  write(text: string): unknown;
}

export function createOutput(
  json: boolean,
  stdout: Writer = process.stdout,
  stderr: Writer = process.stderr,
): Output {
  return {
    json,
    result(data, lines) {
      stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${lines.join('\n')}\n`);
    },
    error(code, message) {
      if (json) stdout.write(`${JSON.stringify({ error: { code, message } }, null, 2)}\n`);
      stderr.write(`payframe: ${message}\n`);
    },
  };
}
