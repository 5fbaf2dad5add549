/**
 * The dashboard: the user's language, where the user stands (use-auth.ts) and the page the
 * address names (route.ts). Until the second factor is verified only the sign-in pages show; a
 * page asked for before signing in is where the user lands after it.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { I18nContext, useI18n } from '../i18n/context.ts';
import { type I18n, type Lang, loadI18n, rememberLang } from '../i18n/index.ts';
import { ANYONE_PAGES, href, navigate, onLinkClick, PUBLIC_PAGES, type Route, useRoute } from '../route.ts';
import { type Auth, useAuth } from '../use-auth.ts';
import { RoleContext } from '../role.ts';
import { ForgotPassword } from './forgot-password.tsx';
import { Overview } from './overview.tsx';
import { LoadFailed, Loading, Page } from './page.tsx';
import { AuditLog } from './audit-log.tsx';
import { AcceptInvitation } from './accept-invitation.tsx';
import { Team } from './team.tsx';
import { Developers } from './developers.tsx';
import { PaymentLinks } from './payment-links.tsx';
import { PaymentView } from './payment.tsx';
import { Payments } from './payments.tsx';
import { SecondFactor } from './second-factor.tsx';
import { Settlement } from './settlement.tsx';
import { Settings } from './settings.tsx';
import { Header } from './header.tsx';
import { SignIn } from './sign-in.tsx';

/** The address a page that needs the user to be in redirects to, given where the user stands. */
function redirectFor(state: Auth['state'], route: Route): string | null {
  if (ANYONE_PAGES.includes(route.page)) return null;
  const open = PUBLIC_PAGES.includes(route.page);
  if (state === 'signed-out' && (!open || route.page === 'second-factor')) return href('/sign-in');
  if (state === 'second-factor' && route.page !== 'second-factor') return href('/second-factor');
  if (state === 'in' && open) return href();
  return null;
}

export function App({ initial }: { initial: I18n }) {
  const [i18n, setI18n] = useState(initial);
  const { route, at } = useRoute();
  const { auth, refresh, signOut } = useAuth();
  // Where a signed-out user was going: the page to show once signed in.
  const wanted = useRef<string | null>(null);

  const changeLang = (lang: Lang) => {
    // A dictionary that cannot be fetched leaves the page in the language it has.
    loadI18n(lang).then(
      (next) => {
        rememberLang(lang);
        setI18n(next);
      },
      () => undefined,
    );
  };

  useEffect(() => {
    if (auth.state === 'checking' || auth.state === 'unreachable') return;
    const to = redirectFor(auth.state, route);
    if (!to) return;
    // The page a user was going to, or was on when the session ended; not after a Sign out.
    if (auth.state === 'signed-out' && !PUBLIC_PAGES.includes(route.page)) {
      wanted.current = auth.why === 'signed-out' ? null : at;
    }
    if (auth.state === 'in' && wanted.current) {
      const back = wanted.current;
      wanted.current = null;
      return navigate(back, true);
    }
    navigate(to, true);
  }, [auth, route, at]);

  const { t } = i18n;
  let body;
  if (auth.state === 'checking' || (auth.state !== 'unreachable' && redirectFor(auth.state, route))) {
    body = <Loading />;
  } else if (route.page === 'invite') {
    // Whoever opens an invitation's link accepts it as a new user, signed in or not.
    body = <AcceptInvitation />;
  } else if (auth.state === 'unreachable') {
    body = (
      <Page title={t('appName')} testId="unreachable">
        <LoadFailed retry={() => void refresh()} />
      </Page>
    );
  } else if (auth.state === 'signed-out') {
    body =
      route.page === 'forgot-password' ? (
        <ForgotPassword />
      ) : (
        <SignIn ended={auth.why === 'ended'} onSignedIn={refresh} />
      );
  } else if (auth.state === 'second-factor') {
    body = <SecondFactor session={auth.session} onVerified={refresh} onSignOut={signOut} />;
  } else {
    body = (
      <RoleContext.Provider value={auth.session.role}>
        <SignedInPage route={route} />
      </RoleContext.Provider>
    );
  }

  return (
    <I18nContext.Provider value={i18n}>
      {/* Links inside the app go through the router: one listener for all of them. */}
      <div class="pd-app" onClick={onLinkClick}>
        <a class="pd-skip" href="#main">
          {t('skipToContent')}
        </a>
        <Header
          route={route}
          session={auth.state === 'in' ? auth.session : null}
          onLang={changeLang}
          onSignOut={signOut}
        />
        <main id="main" class="pd-main" tabIndex={-1}>
          {body}
        </main>
      </div>
    </I18nContext.Provider>
  );
}

function SignedInPage({ route }: { route: Route }) {
  const { t } = useI18n();
  switch (route.page) {
    case 'overview':
      return <Overview />;
    case 'payments':
      return <Payments query={route.query} />;
    case 'payment':
      // One view per payment: another payment's page starts afresh, never with this one's data.
      return <PaymentView key={route.id} id={route.id} />;
    case 'payment-links':
      return <PaymentLinks />;
    case 'settlement':
      return <Settlement />;
    case 'audit-log':
      return <AuditLog query={route.query} />;
    case 'team':
      return <Team />;
    case 'settings':
      return <Settings />;
    case 'developers':
      return <Developers />;
    default:
      return (
        <Page title={t('notFoundTitle')} testId="not-found">
          <p>{t('notFoundBody')}</p>
          <p>
            <a href={href()}>{t('overview')}</a>
          </p>
        </Page>
      );
  }
}
