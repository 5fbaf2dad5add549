/**
 * Widget builds (DESIGN.md §11). `vite build` builds the Preact pages into dist/widget: the status
 * page (`index.html`), the hosted payment page (`pay.html`, served at /pay/:token) and the
 * merchant dashboard (`dashboard.html`, served at /dashboard and every page under it). The
 * framework-free loader is a separate build (vite.loader.config.ts).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { brandMarks } from './scripts/brand-marks-plugin.ts';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('./widget/app'),
  base: '/',
  publicDir: false,
  plugins: [brandMarks()],
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'preact' },
  },
  build: {
    outDir: here('./dist/widget'),
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: false,
    // Keep every script in a file: the page CSP allows no inline script.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        index: here('./widget/app/index.html'),
        pay: here('./widget/app/pay.html'),
        dashboard: here('./widget/app/dashboard.html'),
      },
    },
  },
});
