/**
 * The page's foot: who runs the payment, and the merchant's Terms and Privacy links when its
 * settings have them (opened in a new tab: the payment stays where it is). Links are shown only
 * for http(s) URLs; anything else the settings could hold is left out.
 */
import { useI18n } from '../i18n/context.ts';

const web = (url: string | null | undefined): string | null =>
  url && /^https?:\/\//i.test(url) ? url : null;

export function PageFooter({ terms, privacy }: { terms?: string | null; privacy?: string | null }) {
  const { t } = useI18n();
  const links = [
    [web(terms), t('terms')],
    [web(privacy), t('privacy')],
  ].filter((l): l is [string, string] => l[0] !== null);
  return (
    <footer class="pf-footer" data-testid="secured">
      <span class="pf-secured">
        <svg aria-hidden="true" viewBox="0 0 16 16" width="12" height="12">
          <path fill="currentColor" d="M4 7V5a4 4 0 1 1 8 0v2h1v8H3V7h1Zm2 0h4V5a2 2 0 1 0-4 0v2Z" />
        </svg>{' '}
        {t('securedBy')}
      </span>
      {links.map(([href, label]) => (
        <a href={href} target="_blank" rel="noopener noreferrer" key={label}>
          {label}
        </a>
      ))}
    </footer>
  );
}
