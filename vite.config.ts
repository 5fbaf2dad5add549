/**
 * Widget builds (DESIGN.md §11). `vite build` builds the Preact pages into dist/widget: the status
 * page (`index.html`), the hosted payment page (`pay.html`, served at /pay/:token) and the
 * merchant dashboard (`dashboard.html`, served at /dashboard and every page under it). The
 * framework-free loader is a separate build (vite.loader.config.ts). `vite build --ssr` builds the
 * hosted page's server rendering (widget/app/pay/render-page.tsx) into dist/widget-ssr, which the
 * page route loads (server/checkout/page-renderer.ts).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { brandMarks } from './scripts/brand-marks-plugin.ts';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig(({ isSsrBuild }) => ({
  root: here('./widget/app'),
  base: '/',
  publicDir: false,
  plugins: [brandMarks()],
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'preact' },
  },
  build: isSsrBuild
    ? {
        ssr: here('./widget/app/pay/render-page.tsx'),
        outDir: here('./dist/widget-ssr'),
        emptyOutDir: true,
        target: 'node20',
        sourcemap: false,
        // The brand marks' files are the client build's: the same names, not written twice.
        ssrEmitAssets: false,
        rollupOptions: { output: { entryFileNames: 'render-page.js' } },
        // Every dictionary is imported here and lazily in the browser: one module, as intended.
        rolldownOptions: { checks: { ineffectiveDynamicImport: false } },
      }
    : {
        outDir: here('./dist/widget'),
        emptyOutDir: true,
        target: 'es2020',
        // Logical properties (border-start-start-radius, inset-inline-*) as written: every browser
        // of the target's era that also has them (Chrome 89, Firefox 66, Safari 15) reads them, and
        // lowering them costs the page a rule per direction behind long :lang() selector lists.
        cssTarget: ['chrome89', 'edge89', 'firefox66', 'safari15'],
        sourcemap: false,
        // Keep every script in a file: the page CSP allows no inline script.
        assetsInlineLimit: 0,
        // The pages' HTML preloads what their entry imports; a lazy chunk (a language, the
        // selector) needs nothing more than what is already loaded, so no preload helper is
        // shipped in the first paint for them.
        modulePreload: {
          polyfill: false,
          resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []),
        },
        rollupOptions: {
          input: {
            index: here('./widget/app/index.html'),
            pay: here('./widget/app/pay.html'),
            dashboard: here('./widget/app/dashboard.html'),
          },
        },
      },
}));
