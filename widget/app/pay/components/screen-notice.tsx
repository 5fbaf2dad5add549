/**
 * The screens that are a notice rather than a form (moved out of app.tsx): the session could not be
 * loaded, is not there, or can no longer be paid. The Transaction Service's own reason (spec mode:
 * WidgetSession.unavailableMessage) is shown as text, never as markup: Preact escapes it.
 */
import type { ComponentChild } from 'preact';
import { useI18n } from '../i18n/context.ts';
import type { NoticeScreen } from '../screen.ts';
import { Notice } from './notice.tsx';

interface Props {
  screen: NoticeScreen;
  /** "← Back to {merchant}" as a button, on the screens of a session that has ended; null: none. */
  storeLink: ComponentChild;
  /** In a merchant's page (a modal, an iframe): "close this page" is not the shopper's to do. */
  embedded: boolean;
  onRetry: () => void;
}

export function ScreenNotice({ screen, storeLink, embedded, onRetry }: Props) {
  const { t } = useI18n();
  switch (screen.kind) {
    case 'load-failed':
      return (
        <Notice title={t('loadFailed')} testId="load-failed">
          <button type="button" class="pf-button" onClick={onRetry}>
            {t('tryAgain')}
          </button>
        </Notice>
      );
    case 'not-found':
      return (
        <Notice title={t('notFoundTitle')} testId="not-found">
          <p>{t('notFoundBody')}</p>
        </Notice>
      );
    case 'expired':
      return (
        <Notice title={t('expiredTitle')} testId="expired">
          <p>{t('expiredBody')}</p>
          {storeLink}
        </Notice>
      );
    case 'canceled':
      return (
        <Notice title={t('canceledTitle')} testId="canceled">
          <p>{t(embedded ? 'canceledBodyEmbedded' : 'canceledBody')}</p>
          {storeLink}
        </Notice>
      );
    case 'unavailable':
      return (
        <Notice title={t('unavailableTitle')} testId="unavailable">
          <p data-testid="unavailable-message">{screen.message}</p>
          {storeLink}
        </Notice>
      );
  }
}
