/**
 * Card entry as one grouped control (checkout-design.md "The card form"): the number on its own
 * row with the brand's mark inside it (the accepted brands' marks until the digits name one),
 * expiry and CVC side by side below, sharing its borders. Formats are the placeholders; what each
 * input is and how it is written are its accessible name and description, not hint lines. The name
 * on the card and the postal code are asked only when the merchant asks for them. Rules: the
 * number, expiry and routing checks of shared/card/, the CVC's length per brand (card.ts).
 */
import type { ComponentChildren, TargetedEvent } from 'preact';
import { useState } from 'preact/hooks';
import type { PayBody } from '../../../../shared/checkout/index.ts';
import {
  brandOf,
  type CardAsks,
  type CardValues,
  cardProblems,
  digitsOf,
  formatCardNumber,
  formatExpiry,
  type Problems,
} from '../card.ts';
import { useI18n } from '../i18n/context.ts';
import { BrandMark, LEAD_BRANDS } from './brand-mark.tsx';
import { Field, problemText } from './field.tsx';
import { useFormState } from './form-state.ts';
import { FormSummary } from './form-summary.tsx';

/** "ada@example.com" → "a•••@example.com": enough to recognise, not to read out over a shoulder. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${email[0]}•••${email.slice(at)}` : '•••';
}

interface Props {
  asks: CardAsks;
  initialName: string;
  initialZip: string;
  /** The session's e-mail when the card may be saved to that shopper's wallet; else null. */
  saveFor: string | null;
  serverProblems: Problems<CardValues>;
  onSubmit: (body: PayBody) => void;
  /** The Pay button, and what is said beside it (a decline, a failure). */
  children: ComponentChildren;
}

/** Reformats an input's value keeping the caret after the same number of digits. */
function reformat(el: HTMLInputElement, format: (v: string) => string): string {
  const caret = el.selectionStart ?? el.value.length;
  const digitsBefore = digitsOf(el.value.slice(0, caret)).length;
  const next = format(el.value);
  if (next !== el.value) {
    el.value = next;
    let pos = 0;
    for (let seen = 0; pos < next.length && seen < digitsBefore; pos++) if (/\d/.test(next[pos]!)) seen++;
    if (document.activeElement === el) el.setSelectionRange(pos, pos);
  }
  return next;
}

type Cell = 'number' | 'expiry' | 'cvv';

export function CardForm({
  asks,
  initialName,
  initialZip,
  saveFor,
  serverProblems,
  onSubmit,
  children,
}: Props) {
  const { t } = useI18n();
  const state = useFormState<CardValues>(
    { number: '', expiry: '', cvv: '', name: initialName, zip: initialZip },
    (values) => cardProblems(values, asks),
    serverProblems,
  );
  const { values: v, form, shown, set, leave } = state;
  const [save, setSave] = useState(false);
  const digits = digitsOf(v.number);
  const brand = brandOf(digits);

  const submit = (e: Event) => {
    e.preventDefault();
    if (!state.validate()) return;
    onSubmit({
      method: 'card',
      card: {
        number: digits,
        expiry: v.expiry.replace(/\s/g, ''),
        cvv: v.cvv,
        ...(asks.name ? { name: v.name.trim() } : {}),
      },
      ...(asks.postalCode && v.zip.trim() ? { billing: { zip: v.zip.trim() } } : {}),
      ...(save ? { saveCard: true } : {}),
    });
  };

  // The group's three inputs: each its own accessible name and description, its problem under the group.
  const cell = (
    k: Cell,
    id: string,
    label: string,
    placeholder: string,
    hint: string,
    input: {
      autocomplete: 'cc-number' | 'cc-exp' | 'cc-csc';
      maxLength: number;
      onInput: (e: TargetedEvent<HTMLInputElement, InputEvent>) => void;
    },
    after?: ComponentChildren,
  ) => {
    const problem = shown(k);
    const describe = [
      `${id}-hint`,
      k === 'number' && brand.name ? `${id}-aside` : '',
      problem ? `${id}-error` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return (
      <div class={`pf-cell pf-cell-${k}`} data-invalid={problem ? 'true' : undefined}>
        <label for={id} class="pf-sr">
          {label}
        </label>
        <input
          type="text"
          id={id}
          name={id}
          inputMode="numeric"
          dir="ltr"
          spellcheck={false}
          placeholder={placeholder}
          aria-invalid={problem ? 'true' : 'false'}
          aria-describedby={describe}
          value={v[k]}
          onBlur={leave(k)}
          autocomplete={input.autocomplete}
          maxLength={input.maxLength}
          onInput={input.onInput}
        />
        <span class="pf-sr" id={`${id}-hint`}>
          {hint}
        </span>
        {after}
      </div>
    );
  };

  const marks = brand.type ? (
    <span class="pf-field-marks" aria-hidden="true">
      <BrandMark type={brand.type} />
    </span>
  ) : digits === '' ? (
    <span
      class="pf-field-marks"
      role="img"
      aria-label={t('acceptedCards', { list: LEAD_BRANDS.map(([, name]) => name).join(', ') })}
      data-testid="accepted-brands"
    >
      {LEAD_BRANDS.map(([type]) => (
        <BrandMark type={type} key={type} />
      ))}
    </span>
  ) : null;

  const errors = (['number', 'expiry', 'cvv'] as const).map((k) => {
    const id = { number: 'cc-number', expiry: 'cc-exp', cvv: 'cc-csc' }[k];
    const p = shown(k);
    return (
      <p class="pf-error" id={`${id}-error`} aria-live={p?.announce ? 'polite' : undefined} key={k}>
        {p ? problemText(t, p.problem) : null}
      </p>
    );
  });

  return (
    <form ref={form} onSubmit={submit} noValidate class="pf-form" aria-label={t('methodCard')}>
      <fieldset class="pf-card">
        <legend>{t('cardInformation')}</legend>
        <div class="pf-group">
          {cell(
            'number',
            'cc-number',
            t('cardNumber'),
            '1234 1234 1234 1234',
            t('cardNumberHint'),
            {
              autocomplete: 'cc-number',
              maxLength: 23,
              onInput: (e) => set('number', reformat(e.currentTarget, formatCardNumber)),
            },
            <>
              {brand.name ? (
                <span class="pf-sr" id="cc-number-aside" data-testid="cc-number-aside">
                  {brand.name}
                </span>
              ) : null}
              {marks}
            </>,
          )}
          {cell('expiry', 'cc-exp', t('expiry'), t('expiryPlaceholder'), t('expiryHint'), {
            autocomplete: 'cc-exp',
            // Room for the longest accepted form as pasted or filled ("12 / 2030"): a shorter limit
            // would cut "2030" to "20" before the form could read it. formatExpiry shortens it.
            maxLength: 9,
            onInput: (e) => {
              const deleting = e.inputType?.startsWith('delete') ?? false;
              set(
                'expiry',
                reformat(e.currentTarget, (x) => formatExpiry(x, deleting)),
              );
            },
          })}
          {cell('cvv', 'cc-csc', t('cvv'), t('cvvPlaceholder'), t('cvvHint', { n: brand.cvvSize }), {
            autocomplete: 'cc-csc',
            maxLength: 4,
            onInput: (e) =>
              set(
                'cvv',
                reformat(e.currentTarget, (x) => digitsOf(x).slice(0, 4)),
              ),
          })}
        </div>
        {errors}
      </fieldset>
      {asks.name ? (
        <Field
          id="cc-name"
          label={t('nameOnCard')}
          autocomplete="cc-name"
          required
          value={v.name}
          maxLength={100}
          problem={shown('name')}
          onInput={(e) => set('name', e.currentTarget.value)}
          onBlur={leave('name')}
        />
      ) : null}
      {asks.postalCode ? (
        <Field
          id="postal-code"
          label={t('zip')}
          autocomplete="postal-code"
          required
          value={v.zip}
          maxLength={20}
          problem={shown('zip')}
          onInput={(e) => set('zip', e.currentTarget.value)}
          onBlur={leave('zip')}
        />
      ) : null}
      {saveFor ? (
        <div class="pf-check">
          <input
            id="save-card"
            type="checkbox"
            checked={save}
            aria-describedby="save-card-hint"
            onChange={(e) => setSave(e.currentTarget.checked)}
          />
          <div>
            <label for="save-card">{t('saveCard')}</label>
            {/* Whose wallet it joins: the shopper sees the address before agreeing. */}
            <p class="pf-hint" id="save-card-hint">
              {t('saveCardHint', { to: maskEmail(saveFor) })}
            </p>
          </div>
        </div>
      ) : null}
      <FormSummary count={state.submitted ? state.count() : 0} />
      {children}
    </form>
  );
}
