/**
 * The hosted payment page (and its embed mode): starts from the session the page's HTML carries (or
 * loads it when there is none), shows the right screen for its state, and runs a payment to its
 * end — declines, network failures, 3-D Secure, the receipt.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { PayBody, PayResponse, WidgetSession } from '../../../../shared/checkout/index.ts';
import { type DeclineFamily, declineFamily } from '../../../../shared/checkout/decline-messages.ts';
import { type ChallengeResult, Payer, type Result, sessionApi } from '../api.ts';
import { type Embed, successMessage } from '../embed.ts';
import { formatMoney } from '../format.ts';
import { I18nContext } from '../i18n/context.ts';
import { dirOf } from '../../../../shared/checkout/page-lang.ts';
import { chooseI18n, english, type I18n, type Lang, loadI18n, setDocumentLang } from '../i18n/index.ts';
import { NO_PROBLEMS, serverProblems } from '../server-problems.ts';
import { focusFirstInvalid, focusSoon } from './field.tsx';
import { FormScreen } from './form-screen.tsx';
import { Header } from './header.tsx';
import { Purchase } from './purchase.tsx';
import { Receipt } from './receipt.tsx';
import { ScreenNotice } from './screen-notice.tsx';
import { Skeleton, SKELETON_SESSION } from './skeleton.tsx';
import { applyBranding, checkTheme } from '../theme.ts';
import { useSessionEnd } from '../use-session-end.ts';
import { loadErrorOf, type Screen, screenOf } from '../screen.ts';

/** What the page's HTML carried (page-state.ts), in its language: the first render needs no API call. */
export interface Initial {
  /** null: the page says there is no such session. */
  session: WidgetSession | null;
  i18n: I18n;
}

interface Props {
  token: string;
  params: URLSearchParams;
  embed: Embed | null;
  initial?: Initial | undefined;
  /**
   * The dashboard's preview (`/pay/preview`, issue 16 "Settings"): a sample session that cannot be
   * paid — its Pay button is disabled and nothing is sent to the API.
   */
  preview?: boolean;
}

export function App({ token, params, embed, initial, preview = false }: Props) {
  const api = useMemo(() => sessionApi(token), [token]);
  const payer = useMemo(() => new Payer(api), [api]);
  const [i18n, setI18n] = useState<I18n>(initial?.i18n ?? english);
  const [session, setSession] = useState<WidgetSession | null>(initial?.session ?? null);
  const [screen, setScreen] = useState<Screen>(() => {
    if (!initial) return { kind: 'loading' };
    return initial.session ? screenOf(initial.session) : { kind: 'not-found' };
  });
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<{ title?: string; text: string } | null>(null);
  const [problems, setProblems] = useState(NO_PROBLEMS);
  const { t, lang } = i18n;
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

  /** A session is here, in its language: the document and the host page learn of it. */
  const announce = (s: WidgetSession, chosen: I18n) => {
    retitle(s, chosen);
    applyBranding(s.merchant, checkTheme(params.get('theme')) ?? {}, document.documentElement);
    embed?.setOrigins(s.embedOrigins ?? []);
    embed?.send({ type: 'ready', lang: chosen.lang });
    // The page loaded but can take no payment: the loader reports it (`loaderror`, issue 14 §12).
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

  const expiringSoon = useSessionEnd(screen.kind === 'form', session?.expiresAt ?? null, api, show);

  // Esc while a payment or a bank check is under way must not close a modal around the form: the
  // payment would go on unseen (embed.ts tells the host page about Esc only when not prevented).
  useEffect(() => {
    if (!busy && screen.kind !== 'challenge') return;
    const hold = (e: KeyboardEvent) => {
      if (e.key === 'Escape') e.preventDefault();
    };
    document.addEventListener('keydown', hold, true);
    return () => document.removeEventListener('keydown', hold, true);
  }, [busy, screen.kind]);

  // The language selector is a chunk of its own, fetched after the first paint (it sits last in the
  // page, and its names and labels need not weigh on the first paint); its place is kept meanwhile.
  const [Selector, setSelector] = useState<typeof import('./language-select.tsx').LanguageSelect>();
  useEffect(() => {
    if (embed) return;
    import('./language-select.tsx').then(
      (m) => setSelector(() => m.LanguageSelect),
      () => undefined, // not fetched (offline): the page is still whole in its language
    );
  }, []);

  // The shopper's own choice in the selector: its chunk, then the page in it, without a reload.
  const switchLang = (next: Lang) =>
    void loadI18n(next).then(
      (chosen) => {
        setI18n(chosen);
        retitle(session, chosen);
      },
      () => undefined, // the chunk did not come (offline): the page stays as it was, still usable
    );

  // While loading, the page lays out a stand-in session under a skeleton (skeleton.tsx, issue 14 §3).
  const loading = screen.kind === 'loading';
  const shown = loading ? SKELETON_SESSION : session;
  const amount = shown ? formatMoney(shown.amount, shown.currency, lang) : '';
  // In a right-to-left sentence the amount is a left-to-right island (LRI … PDI): "25.00 US$" as
  // printed, where the bidi algorithm alone would show "$US 25.00".
  const amountInText = dirOf(lang) === 'rtl' ? `\u2066${amount}\u2069` : amount;
  const merchant = shown?.merchant.name ?? null;

  /** `decline`: the bank's refusal (its family goes to the host page); else a failure to pay. */
  const fail = (text: string, title?: string, decline?: DeclineFamily) => {
    setAlert(title ? { title, text } : { text });
    const currency = session?.currency ?? null;
    const data = { message: text, currency, declineCode: decline ?? null };
    embed?.send({ type: 'error', data: { ...data, code: decline ? 'declined' : 'payment_failed' } });
  };

  const handle = async (res: Result<PayResponse>, body: PayBody, wallet?: string) => {
    if (res.ok) {
      const d = res.data;
      if (d.status === 'requires_action') {
        setScreen({ kind: 'challenge', challengeUrl: d.challengeUrl, resultUrl: d.resultUrl, body, wallet });
      } else if (d.status === 'declined') {
        const method = body.method === 'ach' ? 'ach' : 'card';
        fail(i18n.decline(d.code, method), t('declinedTitle'), declineFamily(d.code, method));
      } else {
        setScreen({
          kind: 'paid',
          receipt: d.receipt,
          redirectUrl: d.redirectUrl,
          fresh: d.status === 'succeeded',
        });
        embed?.send(successMessage(d.receipt, d.status));
        // The hosted page goes straight back to the merchant unless it keeps a confirmation (issue
        // 14 §9). assign, not replace: Back from the store lands on this page, which shows the
        // receipt of the paid session. An embedded form never navigates: the host page decides.
        if (!embed && d.redirectUrl && d.status === 'succeeded' && session?.returnMode !== 'confirmation')
          window.location.assign(d.redirectUrl);
      }
      return;
    }
    if (res.kind === 'network') return fail(t(res.status === 0 ? 'networkError' : 'serverError'));
    const p = res.status === 400 && res.error.fields?.length ? serverProblems(res.error.fields) : null;
    if (p && p.count > 0) {
      setProblems(p);
      setAlert({ text: p.count === 1 ? t('errSummaryOne') : t('errSummaryMany', { n: p.count }) });
      // The form on show (the card form stays in the page, hidden, while the bank form is used).
      const shown = [...document.querySelectorAll('form')].find((f) => f.offsetParent !== null) ?? null;
      setTimeout(() => focusFirstInvalid(shown), 0);
      return;
    }
    if (res.status === 404) return setScreen({ kind: 'not-found' });
    if (res.status === 409) {
      // Either the session is no longer open (expired, canceled, paid), or a request is in flight.
      const again = await api.load();
      if (again.ok && again.data.status !== 'open') return show(again.data);
      return fail(t('busyError'));
    }
    if (res.status === 429) return fail(t('rateLimited'));
    // The server's messages are English: shoppers get their own language, the host page the code.
    if (res.status === 401) return fail(t('errWalletExpired'));
    fail(t('serverError'));
  };

  const pay = async (body: PayBody, wallet?: string) => {
    if (preview) return;
    setBusy(true);
    setAlert(null);
    setProblems(NO_PROBLEMS);
    const res = await payer.pay(body, wallet);
    if (res === null) return; // the first click's request is still in flight
    setBusy(false);
    await handle(res, body, wallet);
  };

  const challengeDone = async (r: ChallengeResult) => {
    if (screen.kind !== 'challenge') return;
    const { body, wallet } = screen;
    setScreen({ kind: 'form' });
    if (
      r.status === 'authenticated' &&
      r.cavv &&
      r.eci &&
      r.xid &&
      r.dsTransactionId &&
      body.method !== 'ach'
    ) {
      const threeDSecure = { cavv: r.cavv, eci: r.eci, xid: r.xid, dsTransactionId: r.dsTransactionId };
      await pay({ ...body, threeDSecure }, wallet);
    } else {
      fail(t(r.status === 'expired' ? 'tdsExpired' : 'tdsFailed'));
      focusSoon('.pf-alert'); // the challenge that had the focus is gone
    }
  };

  const cancel = async () => {
    if (preview) return;
    const res = await api.cancel();
    if (res.ok) {
      setScreen({ kind: 'canceled' });
      // Ended for good, by the shopper's confirmed choice (a modal's close is `closed`, from the loader).
      embed?.send({ type: 'cancel', data: { reason: 'canceled', sessionOpen: false } });
      return;
    }
    const again = await api.load();
    if (again.ok && again.data.status !== 'open') return show(again.data);
    fail(t('serverError'));
  };

  const invalid = (n: number) =>
    setAlert({ text: n === 1 ? t('errSummaryOne') : t('errSummaryMany', { n }) });

  // Back to the store without paying (issue 14 §1): the session's cancelUrl (else its returnUrl's
  // origin, else the merchant's website). Not in a widget: the shopper is on the store's page already.
  const backHref =
    shown?.backUrl ??
    (shown?.merchant.website && /^https?:/i.test(shown.merchant.website) ? shown.merchant.website : null);
  const backLabel = (
    <>
      <span aria-hidden="true" class="pf-back-arrow">
        ←
      </span>{' '}
      {t('backToStore', { merchant: merchant ?? t('theMerchant') })}
    </>
  );
  const storeLink =
    backHref && !embed ? (
      <a href={backHref} class="pf-button pf-secondary" data-testid="back-to-store">
        {backLabel}
      </a>
    ) : null;
  const backLink =
    backHref && !embed && (screen.kind === 'form' || loading) ? (
      <a href={backHref} class="pf-back" data-testid="back-link">
        {backLabel}
      </a>
    ) : null;

  let body: preact.ComponentChild;
  switch (screen.kind) {
    case 'loading':
      body = formScreen(SKELETON_SESSION);
      break;
    case 'load-failed':
    case 'not-found':
    case 'expired':
    case 'canceled':
    case 'unavailable':
      body = <ScreenNotice screen={screen} storeLink={storeLink} onRetry={() => void load()} />;
      break;
    case 'paid':
      body = (
        <Receipt
          receipt={screen.receipt}
          redirectUrl={embed ? null : screen.redirectUrl}
          merchant={merchant}
          fresh={screen.fresh}
        />
      );
      break;
    default:
      body = session ? formScreen(session) : null;
  }

  function formScreen(s: WidgetSession) {
    return (
      <FormScreen
        session={s}
        api={api}
        challenge={screen.kind === 'challenge' ? screen : null}
        onChallengeDone={(r) => void challengeDone(r)}
        expiringSoon={expiringSoon}
        alert={alert}
        onClearAlert={() => setAlert(null)}
        problems={problems}
        merchant={merchant}
        amountInText={amountInText}
        onPay={(b, w) => void pay(b, w)}
        onInvalid={invalid}
        busy={busy}
        preview={preview}
        onCancel={() => void cancel()}
      />
    );
  }

  const compact = embed !== null;
  return (
    <I18nContext.Provider value={i18n}>
      <div class={compact ? 'pf-page pf-embedded' : 'pf-page'} aria-busy={loading ? 'true' : undefined}>
        {loading ? <Skeleton>{page()}</Skeleton> : page()}
      </div>
    </I18nContext.Provider>
  );

  function page() {
    return (
      <>
        {backLink}
        {shown && screen.kind !== 'not-found' ? (
          <Header
            merchant={merchant}
            logoUrl={shown.merchant.logoUrl}
            website={shown.merchant.website}
            amount={amount}
            orderNumber={shown.orderNumber}
            compact={compact}
            standing={screen.kind === 'paid' ? 'paid' : loadErrorOf(screen) ? 'ended' : 'due'}
          >
            <Purchase description={shown.description} lineItems={shown.lineItems} currency={shown.currency} />
          </Header>
        ) : null}
        <div class="pf-body">{body}</div>
        {/* Last in the page, after every step of the payment: the form's tab order is unchanged. */}
        {embed ? null : Selector ? (
          <Selector lang={lang} onChange={switchLang} />
        ) : (
          <div class="pf-lang" aria-hidden="true" />
        )}
      </>
    );
  }
}
