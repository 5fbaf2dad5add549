/** The hosted payment page `/pay/:token` (and its embed mode, `?embed=1`). */
import { render } from 'preact';
import { App } from './components/app.tsx';
import { createEmbed } from './embed.ts';
import { applyTheme, parseTheme } from './theme.ts';
import './style.css';

const params = new URLSearchParams(location.search);
const token = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const root = document.documentElement;
applyTheme(parseTheme(params.get('theme')), root);
const embed = createEmbed(params);
if (embed) root.classList.add('pf-embed');

const app = document.getElementById('app');
if (app) render(<App token={token} params={params} embed={embed} />, app);
