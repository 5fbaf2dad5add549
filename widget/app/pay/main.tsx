/** The hosted payment page `/pay/:token` (and its embed mode, `?embed=1`; the dashboard's preview). */
import { hydrate, render } from 'preact';
import { App, type Initial, type PageLayout } from './components/app.tsx';
import { createEmbed } from './embed.ts';
import { documentLang, english, loadI18n } from './i18n/index.ts';
import { pageSession } from './page-state.ts';
import { PREVIEW_TOKEN } from './preview.ts';
import { applyBranding, checkTheme } from './theme.ts';
import './style.css';

const params = new URLSearchParams(location.search);
const token = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const root = document.documentElement;
const theme = checkTheme(params.get('theme'));
const preview = token === PREVIEW_TOKEN;
const embed = preview ? null : createEmbed(params);
const embedded = !preview && params.get('embed') === '1';
const layout: PageLayout = embedded && params.get('layout') === 'fields' ? 'fields' : 'full';
// A theme refused is shown as the default look, and the loader hears why (issue 14 §12).
if (!theme) embed?.send({ type: 'loaderror', data: { reason: 'invalid_theme' } });
if (embed) root.classList.add('pf-embed');

// The session the HTML carried: the merchant's branding is on the page before the first paint.
const session = pageSession(token);
applyBranding(session?.merchant ?? { brandColor: null, cornerRadius: null }, theme ?? {}, root);

const app = document.getElementById('app');
let renders = 0;
const start = (initial?: Initial) => {
  if (!app) return;
  const page = (
    <App
      // The preview's each draft is a fresh page (a new key), as a reload with it would be.
      key={renders++}
      token={token}
      params={params}
      embed={embed}
      embedded={embedded}
      layout={layout}
      origin={location.origin}
      initial={initial}
      preview={preview}
    />
  );
  // The server rendered the page from the same state (render-page.tsx): it is taken over as it is.
  if (renders === 1 && app.hasAttribute('data-rendered')) hydrate(page, app);
  else render(page, app);
};

// The session the HTML carried renders at once, in the language the page route chose and wrote on
// <html lang> (the session's, the widget's, the browser's); only a language other than the bundled
// English waits for its dictionary first (one small chunk, no API call).
// The dashboard's preview listens for its drafts in a chunk of its own, never a payment page's.
if (preview && session) void import('./preview-frame.ts').then((m) => m.startPreview(session, start));
else if (session === undefined) start();
else {
  const lang = documentLang(root);
  // The loader holds the iframe at a placeholder height until the frame tells it its own (issue 14
  // §3). The origins to tell are in the page's state: known now, the first layout's height goes out
  // as soon as it is measured, not after the first render's effects (a visible jump of the frame).
  if (session && lang === english.lang) embed?.setOrigins(session.embedOrigins);
  if (lang === english.lang) start({ session, i18n: english });
  else {
    void loadI18n(lang).then(
      (i18n) => start({ session, i18n }),
      () => start({ session, i18n: english }),
    );
  }
}
