/**
 * A labelled input with its hint and its error: `aria-invalid` and `aria-describedby` tie the error
 * to the input, and the error text sits in a polite live region so it is announced on blur too.
 */
import type { ComponentChildren, PartialInputHTMLAttributes } from 'preact';
import type { Problem } from '../card.ts';
import { useI18n } from '../i18n/context.ts';

export type FieldProps = Omit<
  PartialInputHTMLAttributes<HTMLInputElement>,
  'id' | 'label' | 'role' | 'type'
> & {
  id: string;
  label: string;
  hint?: string;
  problem?: Problem | undefined;
  /** Shown beside the label, e.g. the card brand while typing; part of the input's description. */
  aside?: string | undefined;
  /** Decoration before the aside, e.g. the brand marks. */
  mark?: ComponentChildren;
};

export function Field({ id, label, hint, problem, aside, mark, class: cls, ...input }: FieldProps) {
  const { t } = useI18n();
  const describedBy = [aside ? `${id}-aside` : '', hint ? `${id}-hint` : '', problem ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div class={`pf-field ${cls ?? ''}`}>
      <div class="pf-label-row">
        <label for={id}>{label}</label>
        {mark}
        {aside ? (
          <span class="pf-aside" id={`${id}-aside`} data-testid={`${id}-aside`}>
            {aside}
          </span>
        ) : null}
      </div>
      {hint ? (
        <p class="pf-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <input
        type="text"
        id={id}
        name={id}
        aria-invalid={problem ? 'true' : 'false'}
        aria-describedby={describedBy || undefined}
        // Digits (card number, expiry, CVC, routing and account numbers, codes) read left to
        // right on a right-to-left page too, as banks print them (issue 17).
        dir={input.inputMode === 'numeric' ? 'ltr' : undefined}
        {...input}
      />
      <p class="pf-error" id={`${id}-error`} aria-live="polite">
        {problem ? t(problem.key, problem.vars) : null}
      </p>
    </div>
  );
}

/** Moves focus to the first invalid input of a form (after a failed submit). */
/** Focus for a control that appears on the next render, when the one that had it went away. */
export function focusSoon(selector: string): void {
  setTimeout(() => document.querySelector<HTMLElement>(selector)?.focus(), 0);
}

export function focusFirstInvalid(form: HTMLElement | null): void {
  const first = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  first?.focus();
}
