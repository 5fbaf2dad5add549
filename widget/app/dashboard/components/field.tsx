/**
 * Labelled inputs and selects with their hint and error, as the hosted page's (../pay/components/
 * field.tsx): `aria-invalid` and `aria-describedby` tie the error to the input. An error is heard
 * once, when a failed submit moves focus to its field (`focusFirstInvalid`) and the field is read
 * with its description: not also from a live region, which would say it twice, and not at all
 * for the same error again.
 */
import type { ComponentChildren, InputHTMLAttributes, PartialInputHTMLAttributes } from 'preact';
import { useI18n } from '../i18n/context.ts';

type InputProps = Omit<PartialInputHTMLAttributes<HTMLInputElement>, 'id' | 'label' | 'type' | 'role'> & {
  type?: 'text' | 'password' | 'email' | 'search' | 'date';
};

interface Common {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  optional?: boolean;
}

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

function Frame({ id, label, hint, error, optional, children }: Common & { children: ComponentChildren }) {
  const { t } = useI18n();
  return (
    <div class="pd-field">
      <label for={id}>
        {label}
        {optional ? <span class="pd-muted"> ({t('optional')})</span> : null}
      </label>
      {hint ? (
        <p class="pd-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {children}
      <p class="pd-error" id={`${id}-error`}>
        {error ?? null}
      </p>
    </div>
  );
}

export function Field({ id, label, hint, error, optional, type = 'text', ...input }: Common & InputProps) {
  return (
    <Frame id={id} label={label} hint={hint} error={error} optional={optional}>
      <input
        id={id}
        name={id}
        aria-invalid={error ? 'true' : 'false'}
        aria-describedby={describedBy(id, hint, error)}
        // One field for every text-like type: Preact's input types pair each type with its roles.
        {...({ type, ...input } as InputHTMLAttributes<HTMLInputElement>)}
      />
    </Frame>
  );
}

export function Select({
  id,
  label,
  hint,
  value,
  onChange,
  options,
}: Common & {
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <Frame id={id} label={label} hint={hint}>
      <select id={id} name={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

/**
 * Focus on the first input a failed submit marked, once it is rendered. A field that already has
 * focus (Enter pressed in it) is left and entered again, so its error is read again, even when it
 * is the same error as the last submit's.
 */
export function focusFirstInvalid(form: HTMLElement | null): void {
  setTimeout(() => {
    const field = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!field) return;
    if (document.activeElement === field) field.blur();
    field.focus();
  }, 0);
}

/** Focus on a control that appears on the next render. */
export function focusSoon(selector: string): void {
  setTimeout(() => document.querySelector<HTMLElement>(selector)?.focus(), 0);
}
