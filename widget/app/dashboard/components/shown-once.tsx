/**
 * A secret shown once (a new TransactionKey, a new webhook signing secret): its value in a
 * read-only field to copy, with Copy and Done. The value lives only in the state of the page that
 * made it; Done (or leaving the page) forgets it, and it is never shown again.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useI18n } from '../i18n/context.ts';
import { focusSoon } from './field.tsx';

/** Copies text to the clipboard and says whether it did, in a status line (`message`). */
export function useCopy(): {
  message: string | null;
  copy: (text: string, ok: string, failed: string, select?: string) => Promise<void>;
  clear: () => void;
} {
  const [message, setMessage] = useState<string | null>(null);
  return {
    message,
    clear: () => setMessage(null),
    copy: async (text, ok, failed, select) => {
      try {
        await navigator.clipboard.writeText(text);
        setMessage(ok);
      } catch {
        setMessage(failed);
        // The user copies it by hand: the field's text is selected when it has focus.
        if (select) focusSoon(select);
      }
    },
  };
}

interface Props {
  /** The field's id; the notice's heading is `${id}-title`, focused when the notice mounts. */
  id: string;
  testId: string;
  heading: string;
  headingLevel: 3 | 4;
  /** That it will not be shown again. */
  warning: string;
  label: string;
  value: string;
  /** What became of the secret it replaced, when anything is to be said. */
  note?: string | undefined;
  copyLabel: string;
  copied: string;
  copyFailed: string;
  onDone: () => void;
}

export function ShownOnce(p: Props) {
  const { t } = useI18n();
  const { message, copy } = useCopy();
  const Heading = p.headingLevel === 3 ? 'h3' : 'h4';
  const heading = useRef<HTMLHeadingElement>(null);
  // The notice takes the focus when it appears, so a screen reader reads it and Copy is near.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div class="pd-notice" data-testid={p.testId}>
      <Heading id={`${p.id}-title`} ref={heading} tabIndex={-1}>
        {p.heading}
      </Heading>
      <p>
        <strong>{p.warning}</strong>
      </p>
      <div class="pd-field">
        <label for={p.id}>{p.label}</label>
        <input
          id={p.id}
          class="pd-code"
          type="text"
          readOnly
          autoComplete="off"
          spellcheck={false}
          value={p.value}
          onFocus={(e) => e.currentTarget.select()}
        />
      </div>
      {p.note ? <p>{p.note}</p> : null}
      <div class="pd-actions">
        <button
          type="button"
          class="pd-button pd-primary"
          onClick={() => void copy(p.value, p.copied, p.copyFailed, `#${p.id}`)}
        >
          {p.copyLabel}
        </button>
        <button type="button" class="pd-button" onClick={p.onDone}>
          {t('newKeyDone')}
        </button>
      </div>
      <p role="status" class="pd-muted">
        {message}
      </p>
    </div>
  );
}
