/**
 * The embed loader (widget/loader → dist/widget/checkout.js): one framework-free IIFE, ES2017, no
 * hash in its name (merchants link it directly). Runs after `vite build`, which empties
 * dist/widget; this build must not.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  publicDir: false,
  build: {
    outDir: here('./dist/widget'),
    emptyOutDir: false,
    // As the hosted page's build (vite.config.ts): the loader runs only where the form does.
    target: 'es2020',
    sourcemap: false,
    minify: true,
    lib: {
      entry: here('./widget/loader/checkout.ts'),
      formats: ['iife'],
      name: 'PayframeLoader',
      fileName: () => 'checkout.js',
    },
  },
});
