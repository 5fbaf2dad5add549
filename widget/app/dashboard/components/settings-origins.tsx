/**
 * The Settings form's registered origins (docs/dashboard.md "Settings"): the list, each with its
 * Remove, and the field that adds one in its canonical form. The list is part of the form's draft,
 * saved with the rest; its error is the form's too (the server may name `origins` on a save).
 */
import type { RefObject } from 'preact';
import { useState } from 'preact/hooks';
import { useI18n } from '../i18n/context.ts';
import { Field, focusFirstInvalid } from './field.tsx';

/** An origin as typed, in its canonical form (scheme://host[:port]); null when it is not one. */
function originOf(typed: string): string | null {
  try {
    const url = new URL(typed.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
    return url.origin;
  } catch {
    return null;
  }
}

export function SettingsOrigins({
  origins,
  onChange,
  error,
  onError,
  may,
  disabled,
  form,
}: {
  origins: string[];
  onChange: (origins: string[]) => void;
  error: string | undefined;
  /** Sets (or, with undefined, clears) the form's error for the origins. */
  onError: (error: string | undefined) => void;
  /** Whether the user may change the settings: otherwise the list is shown without its controls. */
  may: boolean;
  disabled: boolean;
  /** The whole form: a refused origin focuses the form's first invalid field, as a submit does. */
  form: RefObject<HTMLFormElement | null>;
}) {
  const { t } = useI18n();
  const [newOrigin, setNewOrigin] = useState('');

  const addOrigin = () => {
    const origin = originOf(newOrigin);
    if (!origin) {
      onError(t('settingsOriginInvalid'));
      return focusFirstInvalid(form.current);
    }
    onError(undefined);
    if (!origins.includes(origin)) onChange([...origins, origin]);
    setNewOrigin('');
  };

  const removeOrigin = (origin: string, index: number) => {
    onChange(origins.filter((o) => o !== origin));
    // The focus goes to the next origin's Remove (or the new-origin field), not to the page's top.
    setTimeout(() => {
      const buttons = form.current?.querySelectorAll<HTMLElement>('.pd-origin button');
      (
        buttons?.[Math.min(index, buttons.length - 1)] ?? document.getElementById('settings-new-origin')
      )?.focus();
    }, 0);
  };

  return (
    <fieldset disabled={disabled}>
      <legend>{t('settingsOrigins')}</legend>
      <p class="pd-hint">{t('settingsOriginsIntro')}</p>
      {origins.length === 0 ? (
        <p data-testid="no-origins">{t('settingsNoOrigins')}</p>
      ) : (
        <ul class="pd-origins" data-testid="origins">
          {origins.map((o, i) => (
            <li key={o} class="pd-origin">
              <span class="pd-url">{o}</span>
              {may ? (
                <button
                  type="button"
                  class="pd-button"
                  aria-label={t('settingsRemoveOrigin', { origin: o })}
                  onClick={() => removeOrigin(o, i)}
                >
                  {t('settingsRemove')}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {may ? (
        <div class="pd-add-origin">
          <Field
            id="settings-new-origin"
            label={t('settingsNewOrigin')}
            hint={t('settingsNewOriginHint')}
            inputMode="url"
            autocomplete="off"
            spellcheck={false}
            value={newOrigin}
            onInput={(e) => setNewOrigin(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addOrigin();
              }
            }}
            error={error}
          />
          <button type="button" class="pd-button" onClick={addOrigin}>
            {t('settingsAddOrigin')}
          </button>
        </div>
      ) : null}
    </fieldset>
  );
}
