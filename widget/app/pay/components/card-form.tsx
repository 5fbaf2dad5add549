/**
 * Card entry: brand shown while typing, digits grouped per brand, the number, expiry (MM/YY or
 * MM/YYYY, not in the past) and routing rules of shared/card/, CVV length per brand. Errors show on
 * blur and on submit; a failed submit moves focus to the first one.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { PayBody } from '../../../../shared/checkout/index.ts';
import {
  brandOf,
  type CardValues,
  cardProblems,
  digitsOf,
  formatCardNumber,
  formatExpiry,
  type Problems,
} from '../card.ts';
import { useI18n } from '../i18n/context.ts';
import { BrandMark, MARKED_BRANDS } from './brand-mark.tsx';
import { Field } from './field.tsx';
import { useFormState } from './form-state.ts';

/** "ada@example.com" → "a•••@example.com": enough to recognise, not to read out over a shoulder. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${email[0]}•••${email.slice(at)}` : '•••';
}

interface Props {
  /** The merchant asks for the name on the card (issue 14 §3, off by default): else no field. */
  askName: boolean;
  initialName: string;
  initialZip: string;
  /** The session's e-mail when the card may be saved to that shopper's wallet; else null. */
  saveFor: string | null;
  serverProblems: Problems<CardValues>;
  onSubmit: (body: PayBody) => void;
  onInvalid: (count: number) => void;
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

export function CardForm({
  askName,
  initialName,
  initialZip,
  saveFor,
  serverProblems,
  onSubmit,
  onInvalid,
  children,
}: Props) {
  const { t } = useI18n();
  const {
    values: v,
    form,
    shown,
    set,
    blur,
    validate,
  } = useFormState<CardValues>(
    { number: '', expiry: '', cvv: '', name: initialName, zip: initialZip },
    (values) => cardProblems(values, askName),
    serverProblems,
    onInvalid,
  );
  const [save, setSave] = useState(false);

  const brand = brandOf(digitsOf(v.number));

  const submit = (e: Event) => {
    e.preventDefault();
    if (!validate()) return;
    onSubmit({
      method: 'card',
      card: {
        number: digitsOf(v.number),
        expiry: v.expiry.replace(/\s/g, ''),
        cvv: v.cvv,
        ...(askName ? { name: v.name.trim() } : {}),
      },
      ...(v.zip.trim() ? { billing: { zip: v.zip.trim() } } : {}),
      ...(save ? { saveCard: true } : {}),
    });
  };

  return (
    <form ref={form} onSubmit={submit} noValidate class="pf-form" aria-label={t('methodCard')}>
      <Field
        id="cc-number"
        label={t('cardNumber')}
        aside={brand.name || undefined}
        mark={
          brand.type ? (
            <BrandMark type={brand.type} />
          ) : digitsOf(v.number) === '' ? (
            <span
              class="pf-brands"
              role="img"
              aria-label={t('acceptedCards', { list: MARKED_BRANDS.map(([, name]) => name).join(', ') })}
              data-testid="accepted-brands"
            >
              {MARKED_BRANDS.map(([type]) => (
                <BrandMark type={type} key={type} />
              ))}
            </span>
          ) : null
        }
        autocomplete="cc-number"
        inputMode="numeric"
        spellcheck={false}
        value={v.number}
        maxLength={23}
        problem={shown('number')}
        onInput={(e) => set('number', reformat(e.currentTarget, formatCardNumber))}
        onBlur={blur('number')}
      />
      <div class="pf-row">
        <Field
          id="cc-exp"
          label={t('expiry')}
          hint={t('expiryHint')}
          autocomplete="cc-exp"
          inputMode="numeric"
          value={v.expiry}
          // Room for the longest accepted form as pasted or filled ("12 / 2030"): a shorter limit
          // would cut "2030" to "20" before the form could read it. formatExpiry shortens it.
          maxLength={9}
          problem={shown('expiry')}
          onInput={(e) => {
            const el = e.currentTarget;
            const deleting = (e as InputEvent).inputType?.startsWith('delete') ?? false;
            set(
              'expiry',
              reformat(el, (x) => formatExpiry(x, deleting)),
            );
          }}
          onBlur={blur('expiry')}
        />
        <Field
          id="cc-csc"
          label={t('cvv')}
          hint={t('cvvHint', { n: brand.cvvSize })}
          autocomplete="cc-csc"
          inputMode="numeric"
          value={v.cvv}
          maxLength={4}
          problem={shown('cvv')}
          onInput={(e) =>
            set(
              'cvv',
              reformat(e.currentTarget, (x) => digitsOf(x).slice(0, 4)),
            )
          }
          onBlur={blur('cvv')}
        />
      </div>
      {askName ? (
        <Field
          id="cc-name"
          label={t('nameOnCard')}
          autocomplete="cc-name"
          required
          value={v.name}
          maxLength={100}
          problem={shown('name')}
          onInput={(e) => set('name', e.currentTarget.value)}
          onBlur={blur('name')}
        />
      ) : null}
      <Field
        id="postal-code"
        label={`${t('zip')} (${t('optional')})`}
        autocomplete="postal-code"
        value={v.zip}
        maxLength={20}
        problem={shown('zip')}
        onInput={(e) => set('zip', e.currentTarget.value)}
      />
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
      {children}
    </form>
  );
}
