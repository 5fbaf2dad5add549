/** The hosted payment page `/pay/:token` (and its embed mode, `?embed=1`). */
import { render } from 'preact';
import { App, type Initial } from './components/app.tsx';
import { createEmbed } from './embed.ts';
import { documentLang, english, loadI18n } from './i18n/index.ts';
import { pageSession } from './page-state.ts';
import { applyTheme, checkTheme } from './theme.ts';
import './style.css';

const params = new URLSearchParams(location.search);
const token = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const root = document.documentElement;
const theme = checkTheme(params.get('theme'));
applyTheme(theme ?? {}, root);
const embed = createEmbed(params);
// A theme refused is shown as the default look, and the loader hears why (issue 14 §12).
if (!theme) embed?.send({ type: 'loaderror', data: { reason: 'invalid_theme' } });
if (embed) root.classList.add('pf-embed');

const app = document.getElementById('app');
const start = (initial?: Initial) => {
  if (app) render(<App token={token} params={params} embed={embed} initial={initial} />, app);
};

// The session the HTML carried renders at once, in the language the page route chose and wrote on
// <html lang> (the session's, the widget's, the browser's); only a language other than the bundled
// English waits for its dictionary first (one small chunk, no API call).
const session = pageSession(token);
if (session === undefined) start();
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
