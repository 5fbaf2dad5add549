/**
 * The hosted page on the server (shared/checkout/page-render.ts): the app's first render, from the
 * same props and the same state the browser's app starts from (main.tsx), as HTML — the page is on
 * screen before its script runs, and the app hydrates it. Built by Vite into dist/widget-ssr
 * (`vite build --ssr`), with every language's dictionary at hand; preact and preact-render-to-string
 * come from the server's node_modules.
 */
import { renderToString } from 'preact-render-to-string';
import type { PageRenderInput, RenderedPage, RenderPayPage } from '../../../shared/checkout/page-render.ts';
import { App, type PageLayout } from './components/app.tsx';
import * as ar from './i18n/ar.ts';
import * as de from './i18n/de.ts';
import * as es from './i18n/es.ts';
import * as fr from './i18n/fr.ts';
import * as he from './i18n/he.ts';
import { english, fromDictionary, type Dictionary, type I18n, type Lang } from './i18n/index.ts';
import * as it from './i18n/it.ts';
import * as ja from './i18n/ja.ts';
import * as nl from './i18n/nl.ts';
import * as pl from './i18n/pl.ts';
import * as ptBR from './i18n/pt-BR.ts';
import * as sv from './i18n/sv.ts';
import * as zhCN from './i18n/zh-CN.ts';
import { branded, brandingCss, checkTheme } from './theme.ts';

const DICTIONARIES: Record<Exclude<Lang, 'en'>, Dictionary> = {
  es,
  fr,
  de,
  it,
  'pt-BR': ptBR,
  nl,
  pl,
  sv,
  ja,
  'zh-CN': zhCN,
  ar,
  he,
};

const i18nOf = (lang: Lang): I18n => (lang === 'en' ? english : fromDictionary(lang, DICTIONARIES[lang]));

export const renderPayPage: RenderPayPage = ({
  session,
  lang,
  search,
  origin,
}: PageRenderInput): RenderedPage => {
  const params = new URLSearchParams(search);
  const embedded = params.get('embed') === '1';
  const layout: PageLayout = embedded && params.get('layout') === 'fields' ? 'fields' : 'full';
  const token = session?.token ?? '';
  // As main.tsx starts: the session the HTML carries, in the language the route chose; without it
  // (the gateway did not answer) the app's loading screen.
  const initial = session === undefined ? undefined : { session, i18n: i18nOf(lang) };
  const html = renderToString(
    <App
      token={token}
      params={params}
      embed={null}
      embedded={embedded}
      layout={layout}
      origin={origin}
      initial={initial}
    />,
  );
  const theme = checkTheme(params.get('theme')) ?? {};
  const branding = session?.merchant ?? { brandColor: null, cornerRadius: null };
  return { html, css: brandingCss(branding, theme), branded: branded(branding, theme) };
};
