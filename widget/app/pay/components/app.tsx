/**
 * The hosted payment page (and its embed mode): the order and the payment side by side at 960 px
 * and wider, one column below (checkout-design.md "Layout"), each screen a component of its own —
 * the form (form-screen.tsx), the receipt, the notices of a session that cannot be paid. The
 * session and its language come from use-session.ts, the payment from use-payment.ts.
 *
 * Rendered on the server too (render-page.tsx), from the same props, and hydrated: nothing here
 * reads the browser while rendering, only in effects and handlers.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { dirOf } from '../../../../shared/checkout/page-lang.ts';
import { Payer, sessionApi } from '../api.ts';
import type { Embed } from '../embed.ts';
import { formatMoney } from '../format.ts';
import { I18nContext } from '../i18n/context.ts';
import { loadErrorOf } from '../screen.ts';
import { type Initial, useSession } from '../use-session.ts';
import { usePayment } from '../use-payment.ts';
import { useSessionEnd } from '../use-session-end.ts';
import { FormScreen } from './form-screen.tsx';
import { OrderSummary } from './order-summary.tsx';
import { PageFooter } from './page-footer.tsx';
import { Receipt } from './receipt.tsx';
import { ScreenNotice } from './screen-notice.tsx';
import { Skeleton, SKELETON_SESSION } from './skeleton.tsx';

export type { Initial } from '../use-session.ts';

/** `full`: the order beside the payment (the hosted page; an embed by default); `fields`: payment only. */
export type PageLayout = 'full' | 'fields';

export interface AppProps {
  token: string;
  params: URLSearchParams;
  /** The channel to the page that frames this one (embed mode in a frame); null: none. */
  embed: Embed | null;
  /** In a merchant's page (`?embed=1`): no way back to the store, the page decides what follows. */
  embedded: boolean;
  layout: PageLayout;
  /** This page's origin (a logo there is shown). */
  origin: string;
  initial?: Initial | undefined;
  /**
   * The dashboard's preview (`/pay/preview`): a sample session that cannot be paid — its Pay
   * button is disabled and nothing is sent to the API.
   */
  preview?: boolean;
}

export function App({ token, params, embed, embedded, layout, origin, initial, preview = false }: AppProps) {
  const api = useMemo(() => sessionApi(token), [token]);
  const payer = useMemo(() => new Payer(api), [api]);
  const { i18n, session, screen, setScreen, show, load, switchLang } = useSession(
    api,
    embed,
    params,
    initial,
  );
  const { t, lang } = i18n;
  const payment = usePayment({
    api,
    payer,
    i18n,
    session,
    screen,
    setScreen,
    show,
    embed,
    preview,
    // The hosted page goes straight back to the merchant unless it keeps a confirmation. assign, not
    // replace: Back from the store lands on this page, which shows the paid session's receipt. An
    // embedded form never navigates: the host page decides.
    leaveOnSuccess: (url) => {
      if (!embedded && session?.returnMode !== 'confirmation') window.location.assign(url);
    },
  });
  const expiringSoon = useSessionEnd(screen.kind === 'form', session?.expiresAt ?? null, api, show);

  // Esc while a payment or a bank check is under way must not close a modal around the form: the
  // payment would go on unseen (embed.ts tells the host page about Esc only when not prevented).
  useEffect(() => {
    if (!payment.busy && screen.kind !== 'challenge') return;
    const hold = (e: KeyboardEvent) => {
      if (e.key === 'Escape') e.preventDefault();
    };
    document.addEventListener('keydown', hold, true);
    return () => document.removeEventListener('keydown', hold, true);
  }, [payment.busy, screen.kind]);

  // The language selector is a chunk of its own, fetched after the first paint (it sits last in the
  // page, and its names and labels need not weigh on the first paint); its place is kept meanwhile.
  const [Selector, setSelector] = useState<typeof import('./language-select.tsx').LanguageSelect>();
  useEffect(() => {
    if (embedded) return;
    import('./language-select.tsx').then(
      (m) => setSelector(() => m.LanguageSelect),
      () => undefined, // not fetched (offline): the page is still whole in its language
    );
  }, []);

  // While loading, the page lays out a stand-in session under a skeleton (skeleton.tsx).
  const loading = screen.kind === 'loading';
  const shown = loading ? SKELETON_SESSION : session;
  const amount = shown ? formatMoney(shown.amount, shown.currency, lang) : '';
  // In a right-to-left sentence the amount is a left-to-right island (LRI … PDI): "25.00 US$" as
  // printed, where the bidi algorithm alone would show "$US 25.00".
  const amountInText = dirOf(lang) === 'rtl' ? `\u2066${amount}\u2069` : amount;
  const merchant = shown?.merchant.name ?? null;

  // Back to the store without paying: the session's cancelUrl (else its returnUrl's origin, else the
  // merchant's website). Not in a widget: the shopper is on the store's page already.
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
    backHref && !embedded ? (
      <a href={backHref} class="pf-button pf-secondary" data-testid="back-to-store">
        {backLabel}
      </a>
    ) : null;
  const backLink =
    backHref && !embedded && (screen.kind === 'form' || loading) ? (
      <a href={backHref} class="pf-back" data-testid="back-link">
        {backLabel}
      </a>
    ) : null;

  const formScreen = (s: typeof SKELETON_SESSION) => (
    <FormScreen
      session={s}
      api={api}
      challenge={screen.kind === 'challenge' ? screen : null}
      onChallengeDone={(r) => void payment.challengeDone(r)}
      expiringSoon={expiringSoon}
      alert={payment.alert}
      onClearAlert={payment.clearAlert}
      problems={payment.problems}
      merchant={merchant}
      amountInText={amountInText}
      onPay={(b, w) => void payment.pay(b, w)}
      busy={payment.busy}
      preview={preview}
      onCancel={() => void payment.cancel()}
    />
  );

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
      body = (
        <ScreenNotice screen={screen} storeLink={storeLink} embedded={embedded} onRetry={() => void load()} />
      );
      break;
    case 'paid':
      body = (
        <Receipt
          receipt={screen.receipt}
          redirectUrl={embedded ? null : screen.redirectUrl}
          merchant={merchant}
          fresh={screen.fresh}
          savedFor={session?.shopper.email ?? null}
        />
      );
      break;
    default:
      body = session ? formScreen(session) : null;
  }

  const order = shown && screen.kind !== 'not-found' && layout === 'full';
  const classes = [
    'pf-page',
    order ? 'pf-two' : 'pf-one',
    embedded ? 'pf-embedded' : '',
    layout === 'fields' ? 'pf-fields-only' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const page = () => (
    <>
      {order ? (
        <OrderSummary
          session={shown}
          standing={screen.kind === 'paid' ? 'paid' : loadErrorOf(screen) ? 'ended' : 'due'}
          backLink={backLink}
          origin={origin}
        />
      ) : null}
      <section class="pf-pay-pane" aria-label={t('paymentMethod')}>
        <div class="pf-pane-inner">
          {body}
          <PageFooter terms={shown?.merchant.termsUrl} privacy={shown?.merchant.privacyUrl} />
          {/* Last in the page, after every step of the payment: the form's tab order is unchanged. */}
          {embedded ? null : Selector ? (
            <Selector lang={lang} onChange={switchLang} />
          ) : (
            <div class="pf-lang" aria-hidden="true" />
          )}
        </div>
      </section>
    </>
  );

  return (
    <I18nContext.Provider value={i18n}>
      <div class={classes} aria-busy={loading ? 'true' : undefined}>
        {loading ? <Skeleton>{page()}</Skeleton> : page()}
      </div>
    </I18nContext.Provider>
  );
}
