/**
 * The session and its language, as the page shows them: starts from what the page's HTML carried
 * (page-state.ts; rendered by the server too), else loads it from the API; tells the document
 * (language, direction, title, branding) and the host page (ready, ended, load errors) what it is;
 * switches language when the shopper picks another, without a reload.
 */
import { useEffect, useState } from 'preact/hooks';
import type { WidgetSession } from '../../../shared/checkout/index.ts';
import type { SessionApi } from './api.ts';
import type { Embed } from './embed.ts';
import { successMessage } from './embed.ts';
import { formatMoney } from './format.ts';
import { chooseI18n, english, type I18n, type Lang, loadI18n, setDocumentLang } from './i18n/index.ts';
import { loadErrorOf, type Screen, screenOf } from './screen.ts';
import { applyBranding, checkTheme } from './theme.ts';

/** What the page's HTML carried, in its language: the first render needs no API call. */
export interface Initial {
  /** null: the page says there is no such session. */
  session: WidgetSession | null;
  i18n: I18n;
}

export function useSession(api: SessionApi, embed: Embed | null, params: URLSearchParams, initial?: Initial) {
  const [i18n, setI18n] = useState<I18n>(initial?.i18n ?? english);
  const [session, setSession] = useState<WidgetSession | null>(initial?.session ?? null);
  const [screen, setScreen] = useState<Screen>(() => {
    if (!initial) return { kind: 'loading' };
    return initial.session ? screenOf(initial.session) : { kind: 'not-found' };
  });
  const asked = params.get('locale');

  // The host page hears of a closed session: it may not know yet (its first try lost the answer, or
  // the modal was closed).
  const tellHost = (next: Screen) => {
    if (next.kind === 'paid') embed?.send(successMessage(next.receipt, 'already_paid'));
    else if (next.kind === 'expired' || (next.kind === 'unavailable' && next.ended === 'expired'))
      embed?.send({ type: 'expired' });
  };

  const show = (s: WidgetSession) => {
    setSession(s);
    const next = screenOf(s);
    setScreen(next);
    tellHost(next);
  };

  /** The document's language, direction and title (Arabic and Hebrew right to left). */
  const retitle = (s: WidgetSession | null, chosen: I18n) => {
    setDocumentLang(chosen.lang);
    if (!s) return;
    document.title = [
      chosen.t('pay', { amount: formatMoney(s.amount, s.currency, chosen.lang) }),
      s.merchant.name,
    ]
      .filter(Boolean)
      .join(' · ');
  };

  /** The loader's words (its frame's name, a modal's title and close button), in the form's language. */
  const tellWords = ({ t }: I18n) =>
    embed?.send({
      type: 'words',
      words: { frame: t('modalFrame'), title: t('modalTitle'), close: t('modalClose') },
    });

  /** A session is here, in its language: the document and the host page learn of it. */
  const announce = (s: WidgetSession, chosen: I18n) => {
    retitle(s, chosen);
    applyBranding(s.merchant, checkTheme(params.get('theme')) ?? {}, document.documentElement);
    embed?.setOrigins(s.embedOrigins ?? []);
    embed?.send({ type: 'ready', lang: chosen.lang });
    tellWords(chosen);
    // The page loaded but can take no payment: the loader reports it (`loaderror`).
    const reason = loadErrorOf(screenOf(s));
    if (reason) embed?.send({ type: 'loaderror', data: { reason } });
  };

  const load = async () => {
    setScreen({ kind: 'loading' });
    const first = chooseI18n([asked, ...navigator.languages]);
    const res = await api.load();
    if (!res.ok) {
      const chosen = await first;
      setI18n(chosen);
      setDocumentLang(chosen.lang);
      return setScreen({ kind: res.kind === 'http' && res.status === 404 ? 'not-found' : 'load-failed' });
    }
    const chosen = await chooseI18n([res.data.locale, asked, ...navigator.languages]);
    setI18n(chosen);
    announce(res.data, chosen);
    show(res.data);
  };

  // The state the page carried is on screen from the first render (the state above starts from
  // it); what its arrival tells the document and the host page happens here. Without it, the
  // session comes from the API.
  useEffect(() => {
    if (!initial) void load();
    else if (!initial.session) setDocumentLang(initial.i18n.lang);
    else {
      announce(initial.session, initial.i18n);
      tellHost(screenOf(initial.session));
    }
  }, []);

  // The shopper's own choice in the selector: its chunk, then the page in it, without a reload.
  const switchLang = (next: Lang) =>
    void loadI18n(next).then(
      (chosen) => {
        setI18n(chosen);
        retitle(session, chosen);
        tellWords(chosen);
      },
      () => undefined, // the chunk did not come (offline): the page stays as it was, still usable
    );

  return { i18n, session, screen, setScreen, show, load, switchLang };
}
