/**
 * The files Payframe reads at run time besides its code, found from where the code runs:
 *
 *   TypeScript source   (`npm run dev`, tests, the `payframe` command in a development checkout):
 *                       this module is server/runtime-files.ts, the files are where the repository
 *                       keeps them;
 *   compiled server     (`npm start`): this module is bundled into dist/server/payframe.js, and
 *                       `npm run build` (scripts/build-server.ts) copies each file beside it, so
 *                       dist/ with the production dependencies is all a server needs.
 *
 * One table for both: the build copies `source` to `compiled`, the server reads one of the two.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RuntimeFile {
  /** From the repository's root. */
  source: string;
  /** From dist/server, where the compiled server lives. */
  compiled: string;
}

export const RUNTIME_FILES = {
  /** Plain SQL migrations (server/db/migrate.ts). */
  migrations: { source: 'server/db/migrations', compiled: 'migrations' },
  /** The demo store's stylesheet and script (server/demo/demo-store.ts). */
  demoPublic: { source: 'server/demo/public', compiled: 'demo-public' },
  /** The merchant guide whose embed examples the demo store serves (server/demo/guide-examples.ts). */
  merchantGuide: { source: 'docs/merchant-guide.md', compiled: 'merchant-guide.md' },
  /** The widget's Vite build; not copied: both layouts find it at dist/widget. */
  widget: { source: 'dist/widget', compiled: '../widget' },
  /** The hosted page's server rendering (`vite build --ssr`), at dist/widget-ssr in both layouts. */
  widgetRenderer: { source: 'dist/widget-ssr', compiled: '../widget-ssr' },
} as const satisfies Record<string, RuntimeFile>;

const moduleUrl = import.meta.url;
const here = path.dirname(fileURLToPath(moduleUrl));
/** Run as TypeScript, this file is itself; compiled, it is part of dist/server/payframe.js. */
export const RUNNING_COMPILED = !moduleUrl.endsWith('.ts');

/** Where a runtime file is for the code running now. */
export function runtimePath(name: keyof typeof RUNTIME_FILES): string {
  const file = RUNTIME_FILES[name];
  return RUNNING_COMPILED ? path.resolve(here, file.compiled) : path.resolve(here, '..', file.source);
}
