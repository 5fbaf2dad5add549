/**
 * Export CSV: a download the browser makes itself, so a session that ended meanwhile would download
 * the server's 401 answer as the file. The session is asked first: one that ended takes the user to
 * the sign-in page, which says so, as any call would; a live one downloads.
 */
import { api } from '../api.ts';
import { useI18n } from '../i18n/context.ts';

export function ExportLink({ url }: { url: string }) {
  const { t } = useI18n();
  return (
    <a
      class="pd-button"
      href={url}
      download
      onClick={async (event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        const res = await api.stillSignedIn();
        // A 401 has already returned the app to the sign-in; another failure leaves the link to try.
        if (res.ok) location.assign(url);
      }}
    >
      {t('exportCsv')}
    </a>
  );
}
