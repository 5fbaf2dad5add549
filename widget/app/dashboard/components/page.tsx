/**
 * One page of the dashboard: its heading names it in the document's title, and takes focus when the
 * user arrives by a link (a screen reader hears where it is; the next Tab starts from the page, not
 * from the link that went away). The first page of a visit leaves focus where the browser put it.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useI18n } from '../i18n/context.ts';

let firstPage = true;

export function Page({
  title,
  children,
  testId,
}: {
  title: string;
  children?: ComponentChildren;
  testId: string;
}) {
  const { t } = useI18n();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · ${t('appName')}`;
  }, [title, t]);
  useEffect(() => {
    if (!firstPage) heading.current?.focus();
    firstPage = false;
  }, [testId]);
  return (
    <section class="pd-page" data-testid={testId} aria-labelledby={`${testId}-title`}>
      <h1 id={`${testId}-title`} tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children}
    </section>
  );
}

/** A part of a page that loads: the words while it loads, and the way to try again when it failed. */
export function Loading() {
  const { t } = useI18n();
  return (
    <p class="pd-muted" role="status">
      {t('loading')}
    </p>
  );
}

export function LoadFailed({ retry }: { retry: () => void }) {
  const { t } = useI18n();
  return (
    <div role="alert" class="pd-alert">
      <p>{t('loadFailed')}</p>
      <button type="button" class="pd-button" onClick={retry}>
        {t('tryAgain')}
      </button>
    </div>
  );
}
