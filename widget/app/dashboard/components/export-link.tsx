/**
 * Export CSV: a download the browser makes itself, so a session that ended meanwhile would download
 * the server's 401 answer as the file. The session is asked first: one that ended takes the user to
 * the sign-in page, which says so, as any call would; a live one downloads.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { useI18n } from '../i18n/context.ts';

export function ExportLink({ url }: { url: string }) {
  const { t } = useI18n();
  const [failed, setFailed] = useState(false);
  return (
    <>
      <a
        class="pd-button"
        href={url}
        download
        onClick={async (event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
          event.preventDefault();
          setFailed(false);
          const res = await api.stillSignedIn();
          // A 401 has already returned the app to the sign-in; another failure is told, to try again.
          if (res.ok) location.assign(url);
          else if (res.status !== 401) setFailed(true);
        }}
      >
        {t('exportCsv')}
      </a>
      <span role="alert" class={failed ? 'pd-alert' : 'pd-empty'}>
        {failed ? t('loadFailed') : null}
      </span>
    </>
  );
}
