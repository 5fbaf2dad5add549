/** The merchant dashboard, `/dashboard` and every page under it (one HTML, History API routing). */
import { render } from 'preact';
import { App } from './components/app.tsx';
import { loadI18n, startLang } from './i18n/index.ts';
import './style.css';

const root = document.getElementById('app');
const lang = startLang();
document.documentElement.lang = lang;
void loadI18n(lang)
  .catch(() => loadI18n('en'))
  .then((i18n) => {
    if (root) render(<App initial={i18n} />, root);
  });
