/**
 * Size budgets of what a shopper downloads (DESIGN.md §11; checkout-anchors.md §5.2): the embed
 * loader ≤ 3 KB gzip, the hosted page's first paint ≤ 36 KB gzip — the JS and CSS that pay.html
 * references (entry, stylesheets, modulepreloads) and the card networks' marks shown before a card
 * is typed (files of their own: widget/app/pay/components/brand-mark.tsx), not chunks loaded later
 * (a locale, the 3-D Secure step). The merchant dashboard's first paint (dashboard.html) has its
 * own, ≤ 60 KB gzip.
 * Measures the build in dist/widget: `npm run build` first (`npm test` does).
 * Sizes are gzip level 9, as checkout-anchors.md §3 measured the other widgets.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { PAGE_LANGS } from '../shared/checkout/page-lang.ts';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/widget');
const KB = 1024;
const LOADER_BUDGET = 3 * KB;
const FIRST_PAINT_BUDGET = 36 * KB;
const DASHBOARD_BUDGET = 60 * KB;

function built(file: string): string {
  const full = path.join(DIST, file);
  if (!fs.existsSync(full)) {
    throw new Error(`${path.relative(process.cwd(), full)} is missing: run \`npm run build\` first.`);
  }
  return full;
}

const gzipSize = (file: string) => gzipSync(fs.readFileSync(file), { level: 9 }).length;

/** The networks' marks the card field shows before a card is typed (brand-mark.tsx LEAD_BRANDS). */
const LEAD_MARKS = ['visa', 'mastercard', 'amex', 'discover'];
function leadMarks(): string[] {
  const assets = fs.readdirSync(path.join(DIST, 'assets'));
  return LEAD_MARKS.map((name) => {
    const found = assets.filter((f) => new RegExp(`^${name}-[\\w-]{8}\\.svg$`).test(f));
    expect(found, `the build has one mark for ${name}`).toHaveLength(1);
    return path.join('assets', found[0]!);
  });
}

/** Same-origin scripts, stylesheets and module preloads an HTML page names (what the first paint needs). */
function firstPaintFiles(html: string): string[] {
  const urls = new Set<string>();
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/gi) ?? []) {
    const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1];
    const url = tag.toLowerCase().startsWith('<script') ? attr('src') : attr('href');
    const rel = attr('rel')?.toLowerCase();
    if (!url || /^(?:[a-z]+:)?\/\//i.test(url) || url.startsWith('data:')) continue;
    if (tag.toLowerCase().startsWith('<script') || rel === 'stylesheet' || rel === 'modulepreload') {
      urls.add(url.replace(/^\//, ''));
    }
  }
  return [...urls];
}

test(`the embed loader (checkout.js) is at most ${LOADER_BUDGET / KB} KB gzip`, () => {
  const size = gzipSize(built('checkout.js'));
  expect(size, `checkout.js is ${size} bytes gzip; the budget is ${LOADER_BUDGET}`).toBeLessThanOrEqual(
    LOADER_BUDGET,
  );
});

test(`the hosted page's first paint (pay.html's JS and CSS, the marks it shows) is at most ${FIRST_PAINT_BUDGET / KB} KB gzip`, () => {
  const html = fs.readFileSync(built('pay.html'), 'utf8');
  const files = [...firstPaintFiles(html), ...leadMarks()];
  expect(
    files.some((f) => f.endsWith('.js')),
    'pay.html names no script',
  ).toBe(true);
  const sizes = files.map((f) => `${f} ${gzipSize(built(f))}`);
  const total = files.reduce((sum, f) => sum + gzipSize(built(f)), 0);
  expect(
    total,
    `first paint is ${total} bytes gzip (${sizes.join(', ')}); the budget is ${FIRST_PAINT_BUDGET}`,
  ).toBeLessThanOrEqual(FIRST_PAINT_BUDGET);
});

/** Each language's lazy chunk in the build: `assets/<lang>-<hash>.js` (widget/app/pay/i18n/index.ts). */
function languageChunks(): Map<string, string> {
  const assets = fs.readdirSync(path.join(DIST, 'assets'));
  return new Map(
    PAGE_LANGS.filter((l) => l !== 'en').map((lang) => {
      const found = assets.filter((f) => f.startsWith(`${lang}-`) && /^[\w-]+-[\w-]{8}\.js$/.test(f));
      expect(found, `the build has one chunk for ${lang}`).toHaveLength(1);
      return [lang, path.join('assets', found[0]!)];
    }),
  );
}

test(`every language's first paint (pay.html's JS and CSS, the marks, its dictionary) is at most ${FIRST_PAINT_BUDGET / KB} KB gzip`, () => {
  const files = [...firstPaintFiles(fs.readFileSync(built('pay.html'), 'utf8')), ...leadMarks()];
  const english = files.reduce((sum, f) => sum + gzipSize(built(f)), 0);
  const chunks = languageChunks();
  // Each dictionary stays out of the first paint: English pays for none of them.
  for (const chunk of chunks.values()) expect(files).not.toContain(chunk);
  for (const [lang, chunk] of chunks) {
    const total = english + gzipSize(built(chunk));
    expect(total, `${lang}: ${total} bytes gzip; the budget is ${FIRST_PAINT_BUDGET}`).toBeLessThanOrEqual(
      FIRST_PAINT_BUDGET,
    );
  }
});

/** The dashboard's Spanish dictionary, its one lazy chunk (widget/app/dashboard/i18n/index.ts). */
const dashboardSpanish = () => {
  const found = fs
    .readdirSync(path.join(DIST, 'assets'))
    .filter((f) => /^dashboard-es-[\w-]{8}\.js$/.test(f));
  expect(found, 'the build has one chunk for the dashboard in Spanish').toHaveLength(1);
  return path.join('assets', found[0]!);
};

test(`the dashboard's first paint (dashboard.html's JS and CSS, in English and in Spanish) is at most ${DASHBOARD_BUDGET / KB} KB gzip`, () => {
  const files = firstPaintFiles(fs.readFileSync(built('dashboard.html'), 'utf8'));
  expect(
    files.some((f) => f.endsWith('.js')),
    'dashboard.html names no script',
  ).toBe(true);
  const sizes = files.map((f) => `${f} ${gzipSize(built(f))}`);
  const english = files.reduce((sum, f) => sum + gzipSize(built(f)), 0);
  expect(
    english,
    `first paint is ${english} bytes gzip (${sizes.join(', ')}); the budget is ${DASHBOARD_BUDGET}`,
  ).toBeLessThanOrEqual(DASHBOARD_BUDGET);
  const spanish = dashboardSpanish();
  expect(files).not.toContain(spanish);
  const total = english + gzipSize(built(spanish));
  expect(total, `es: ${total} bytes gzip; the budget is ${DASHBOARD_BUDGET}`).toBeLessThanOrEqual(
    DASHBOARD_BUDGET,
  );
});

test('firstPaintFiles reads scripts, stylesheets and modulepreloads, not lazy or foreign files', () => {
  const html = `<script type="module" crossorigin src="/assets/pay-1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/preact-2.js">
    <link rel="stylesheet" crossorigin href="/assets/pay-3.css">
    <link rel="icon" href="data:,"><link rel="preconnect" href="https://fonts.example">
    <script src="https://cdn.example/x.js"></script>`;
  expect(firstPaintFiles(html)).toEqual(['assets/pay-1.js', 'assets/preact-2.js', 'assets/pay-3.css']);
});
