/**
 * The hosted page rendered on the server: the page route (server/checkout/pages.ts) asks the
 * widget's own components for the page's markup (widget/app/pay/render-page.tsx, built by Vite
 * into dist/widget-ssr and loaded by path), puts it in the HTML, and the browser's app hydrates it —
 * the page is on screen before its script runs. Declared here so both sides agree on it; no code.
 */
import type { PageLang } from './page-lang.ts';
import type { WidgetSession } from './pay-schemas.ts';

export interface PageRenderInput {
  /** The session the page carries; null: no such session; undefined: the page could not ask. */
  session: WidgetSession | null | undefined;
  lang: PageLang;
  /** The page's query string (`embed`, `layout`, `theme`, `locale`), as the app reads it. */
  search: string;
  /** The page's origin as the browser sees it (a logo there is shown). */
  origin: string;
}

export interface RenderedPage {
  /** The app's markup, for inside `<main id="app">`. */
  html: string;
  /** The merchant's branding as CSS (custom properties on :root), or '' for the default look. */
  css: string;
  /** A colour of the merchant's replaces the default: `<html data-brand>` (the dark scheme keeps it). */
  branded: boolean;
}

export type RenderPayPage = (input: PageRenderInput) => RenderedPage;
