/**
 * The dashboard's labelled inputs and selects: the fields of both apps (../../ui/field.tsx), with
 * the dashboard's class prefix. An error is heard once, when a failed submit moves focus to its
 * field (`focusFirstInvalid`) and the field is read with its description: not also from a live
 * region, which would say it twice, and not at all for the same error again.
 */
import type { ComponentChildren } from 'preact';
import { describedBy, Field as UiField, type FieldProps } from '../../ui/field.tsx';
import { useI18n } from '../i18n/context.ts';

export { focusFirstInvalid, focusSoon } from '../../ui/focus.ts';

interface Common {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  optional?: boolean;
}

function Label({ label, optional }: { label: string; optional?: boolean | undefined }) {
  const { t } = useI18n();
  return (
    <>
      {label}
      {optional ? <span class="pd-muted"> ({t('optional')})</span> : null}
    </>
  );
}

function Frame({ id, label, hint, error, optional, children }: Common & { children: ComponentChildren }) {
  return (
    <div class="pd-field">
      <label for={id}>
        <Label label={label} optional={optional} />
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

export function Field({
  label,
  optional,
  ...props
}: Common & Omit<FieldProps, 'prefix' | 'label' | 'announce' | 'hintHidden' | 'after'>) {
  return <UiField prefix="pd" label={<Label label={label} optional={optional} />} {...props} />;
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
      <select
        id={id}
        name={id}
        aria-describedby={describedBy(id, ['hint', hint])}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}
