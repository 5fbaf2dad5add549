/**
 * "Cancel payment", asked once more before it is done ("Yes, cancel" / "No, continue paying").
 * Each answer replaces the control that had the focus, so the focus moves with it.
 */
import { useState } from 'preact/hooks';
import { useI18n } from '../i18n/context.ts';
import { focusSoon } from './field.tsx';

export function CancelControl({ disabled, onConfirm }: { disabled: boolean; onConfirm: () => void }) {
  const { t } = useI18n();
  const [asking, setAsking] = useState(false);
  return (
    <div class="pf-cancel">
      {asking ? (
        <div role="group" aria-labelledby="cancel-q">
          <p id="cancel-q">{t('cancelQuestion')}</p>
          <button
            type="button"
            class="pf-link"
            onClick={() => {
              setAsking(false);
              onConfirm();
            }}
          >
            {t('cancelYes')}
          </button>{' '}
          <button
            type="button"
            class="pf-link pf-cancel-no"
            onClick={() => {
              setAsking(false);
              focusSoon('.pf-cancel-link');
            }}
          >
            {t('cancelNo')}
          </button>
        </div>
      ) : (
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
      )}
    </div>
  );
}
