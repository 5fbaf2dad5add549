/**
 * "Cancel payment", asked once more before it is done: the question and its two answers as two
 * real buttons ("Yes, cancel" / "No, continue paying"), side by side. Each answer replaces the
 * control that had the focus, so the focus moves with it.
 */
import { useState } from 'preact/hooks';
import { focusSoon } from '../../ui/focus.ts';
import { useI18n } from '../i18n/context.ts';

export function CancelControl({ disabled, onConfirm }: { disabled: boolean; onConfirm: () => void }) {
  const { t } = useI18n();
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <div class="pf-cancel">
        <button
          type="button"
          class="pf-link pf-cancel-link"
          disabled={disabled}
          onClick={() => {
            setAsking(true);
            focusSoon('.pf-cancel-no'); // the safe answer, where the question appears
          }}
        >
          {t('cancel')}
        </button>
      </div>
    );
  }
  return (
    <div class="pf-cancel pf-cancel-asking" role="group" aria-labelledby="cancel-q">
      <p id="cancel-q">{t('cancelQuestion')}</p>
      <div class="pf-cancel-answers">
        <button
          type="button"
          class="pf-button pf-secondary pf-cancel-no"
          onClick={() => {
            setAsking(false);
            focusSoon('.pf-cancel-link');
          }}
        >
          {t('cancelNo')}
        </button>
        <button
          type="button"
          class="pf-button pf-danger"
          onClick={() => {
            setAsking(false);
            onConfirm();
          }}
        >
          {t('cancelYes')}
        </button>
      </div>
    </div>
  );
}
