#!/usr/bin/env node
// The `payframe` command. Where the development dependencies are installed it runs the TypeScript
// source through tsx (server/cli/entry.ts), so in a development checkout it is always the code being
// edited. Installed for production (`npm ci --omit=dev`, no tsx) it runs the compiled server that
// `npm run build` wrote, dist/server/payframe.js — what `npm start` runs — with source maps on, so
// stack traces name the .ts files.
import fs from 'node:fs';

let tsx = null;
try {
  tsx = await import('tsx/esm/api');
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
}

if (tsx) {
  tsx.register();
  await import('../server/cli/entry.ts');
} else {
  const compiled = new URL('../dist/server/payframe.js', import.meta.url);
  if (!fs.existsSync(compiled)) {
    process.stderr.write(
      'Payframe is not built: dist/server/payframe.js is missing. Build it where the development\n' +
        'dependencies are installed (`npm ci && npm run build`), then run this command again.\n',
    );
    process.exit(1);
  }
  process.setSourceMapsEnabled(true);
  await import(compiled.href);
}
