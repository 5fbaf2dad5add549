/**
 * The top of every page: the product's name, the language selector and, once signed in, who is
 * signed in, the navigation (the current page marked with `aria-current`) and Sign out.
 */
import type { SessionInfo } from '../api-types.ts';
import { useI18n } from '../i18n/context.ts';
import { type Lang, LANG_NAMES, LANGS } from '../i18n/index.ts';
import { mayReadAuditLog, mayReadTeam } from '../role.ts';
import { href, type Route } from '../route.ts';
import { SignOutButton } from './sign-out.tsx';

interface Props {
  route: Route;
  session: SessionInfo | null;
  onLang: (lang: Lang) => void;
  /** False when signing out failed: the user is told, and stays signed in. */
  onSignOut: () => Promise<boolean>;
}

const NAV = [
  { path: '', key: 'overview', pages: ['overview'] },
  { path: '/payments', key: 'payments', pages: ['payments', 'payment'] },
  { path: '/payment-links', key: 'paymentLinks', pages: ['payment-links'] },
  { path: '/settlement', key: 'settlement', pages: ['settlement'] },
  { path: '/audit-log', key: 'auditLog', pages: ['audit-log'] },
  { path: '/team', key: 'team', pages: ['team'] },
  { path: '/settings', key: 'settings', pages: ['settings'] },
  { path: '/developers', key: 'developers', pages: ['developers'] },
] as const;

export function Header({ route, session, onLang, onSignOut }: Props) {
  const { t, lang } = useI18n();
  return (
    <header class="pd-header">
      <div class="pd-header-row">
        <p class="pd-brand">{t('appName')}</p>
        {session ? (
          <p class="pd-who" data-testid="signed-in-as">
            {t('signedInAs', {
              user: session.user.name,
              merchant: session.merchant.name ?? session.merchant.id,
            })}
          </p>
        ) : null}
        <div class="pd-lang">
          <label for="pd-lang">{t('language')}</label>
          <select
            id="pd-lang"
            value={lang}
            onChange={(e) => {
              const next = LANGS.find((l) => l === e.currentTarget.value);
              if (next && next !== lang) onLang(next);
            }}
          >
            {LANGS.map((l) => (
              <option key={l} value={l} lang={l}>
                {LANG_NAMES[l]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {session ? (
        <nav class="pd-nav" aria-label={t('mainNav')}>
          <ul>
            {NAV.filter(
              (item) =>
                (item.key !== 'auditLog' || mayReadAuditLog(session.role)) &&
                (item.key !== 'team' || mayReadTeam(session.role)),
            ).map((item) => (
              <li key={item.key}>
                <a
                  href={href(item.path)}
                  aria-current={(item.pages as readonly string[]).includes(route.page) ? 'page' : undefined}
                >
                  {t(item.key)}
                </a>
              </li>
            ))}
            <li>
              <SignOutButton onSignOut={onSignOut} />
            </li>
          </ul>
        </nav>
      ) : null}
    </header>
  );
}
