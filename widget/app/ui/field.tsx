/**
 * A labelled input with its hint and its error, for both apps: `aria-invalid` and
 * `aria-describedby` tie the error (and the hint) to the input.
 *
 * When is an error heard? Once. An error that appears as the shopper leaves a field is said by a
 * polite live region (`announce`); one that a submit or a decline puts there is heard when focus
 * moves to its field (focusFirstInvalid) and the field is read with its description, so its region
 * is not live then (it would say it twice).
 */
import type { ComponentChildren, InputHTMLAttributes, PartialInputHTMLAttributes } from 'preact';

export type FieldProps = Omit<
  PartialInputHTMLAttributes<HTMLInputElement>,
  'id' | 'label' | 'role' | 'type'
> & {
  /** The app's class prefix: `pf` (payment page), `pd` (dashboard). */
  prefix: 'pf' | 'pd';
  id: string;
  label: ComponentChildren;
  /** Said with the input (its format, what it is for); shown under the label unless `hintHidden`. */
  hint?: string | undefined;
  hintHidden?: boolean;
  /** The error's words; none: the field is valid (or not judged yet). */
  error?: string | undefined;
  /** The error region is live (an error that appears on leaving the field). */
  announce?: boolean;
  type?: 'text' | 'password' | 'email' | 'search' | 'date';
  /** Inside the input's box, after it (e.g. the card brand's mark). */
  after?: ComponentChildren;
};

export function describedBy(id: string, ...parts: [string, unknown][]): string | undefined {
  return (
    parts
      .filter(([, on]) => Boolean(on))
      .map(([suffix]) => `${id}-${suffix}`)
      .join(' ') || undefined
  );
}

export function Field({
  prefix,
  id,
  label,
  hint,
  hintHidden = false,
  error,
  announce = false,
  type = 'text',
  after,
  class: cls,
  ...input
}: FieldProps) {
  const control = (
    <input
      id={id}
      name={id}
      aria-invalid={error ? 'true' : 'false'}
      aria-describedby={describedBy(id, ['hint', hint], ['error', error])}
      // Digits (card number, expiry, CVC, routing and account numbers, codes) read left to
      // right on a right-to-left page too, as banks print them.
      dir={input.inputMode === 'numeric' ? 'ltr' : undefined}
      // One field for every text-like type: Preact's input types pair each type with its roles.
      {...({ type, ...input } as InputHTMLAttributes<HTMLInputElement>)}
    />
  );
  return (
    <div class={`${prefix}-field${cls ? ` ${String(cls)}` : ''}`}>
      <label for={id}>{label}</label>
      {hint ? (
        <p class={hintHidden ? `${prefix}-sr` : `${prefix}-hint`} id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {after ? (
        <div class={`${prefix}-input-box`}>
          {control}
          {after}
        </div>
      ) : (
        control
      )}
      <p class={`${prefix}-error`} id={`${id}-error`} aria-live={announce ? 'polite' : undefined}>
        {error ?? null}
      </p>
    </div>
  );
}
