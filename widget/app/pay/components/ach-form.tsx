/**
 * Bank account (ACH) entry: the ABA routing checksum, a 4–17 digit account typed twice (a digit
 * wrong is caught here, not days later as a return), the account type, the name, and the
 * shopper's authorisation of this one debit.
 */
import type { ComponentChildren } from 'preact';
import type { PayBody } from '../../../../shared/checkout/index.ts';
import { type AchValues, achProblems, digitsOf, type Problems } from '../card.ts';
import { useI18n } from '../i18n/context.ts';
import { Field, problemText } from './field.tsx';
import { useFormState } from './form-state.ts';
import { FormSummary } from './form-summary.tsx';

interface Props {
  initialName: string;
  merchant: string;
  amount: string;
  serverProblems: Problems<AchValues>;
  onSubmit: (body: PayBody) => void;
  children: ComponentChildren;
}

const TYPES = ['checking', 'savings', 'businessChecking'] as const;

export function AchForm({ initialName, merchant, amount, serverProblems, onSubmit, children }: Props) {
  const { t } = useI18n();
  const state = useFormState<AchValues>(
    { routing: '', account: '', confirm: '', accountType: 'checking', name: initialName, authorized: false },
    achProblems,
    serverProblems,
  );
  const { values: v, form, shown, set, leave } = state;

  const submit = (e: Event) => {
    e.preventDefault();
    if (!state.validate()) return;
    onSubmit({
      method: 'ach',
      ach: {
        routingNumber: v.routing,
        accountNumber: v.account,
        accountType: v.accountType,
        nameOnAccount: v.name.trim(),
        authorized: true,
      },
    });
  };
  const digitsInto = (k: 'routing' | 'account' | 'confirm', max: number) => (e: Event) => {
    const el = e.currentTarget as HTMLInputElement;
    set(k, (el.value = digitsOf(el.value).slice(0, max)));
  };
  const auth = shown('authorized');

  return (
    <form ref={form} onSubmit={submit} noValidate class="pf-form" aria-label={t('methodAch')}>
      <Field
        id="ach-routing"
        label={t('routingNumber')}
        hint={t('routingHint')}
        hintHidden
        placeholder="123456789"
        inputMode="numeric"
        autocomplete="off"
        value={v.routing}
        maxLength={9}
        problem={shown('routing')}
        onInput={digitsInto('routing', 9)}
        onBlur={leave('routing')}
      />
      <div class="pf-row">
        <Field
          id="ach-account"
          label={t('accountNumber')}
          inputMode="numeric"
          autocomplete="off"
          value={v.account}
          maxLength={17}
          problem={shown('account')}
          onInput={digitsInto('account', 17)}
          onBlur={leave('account')}
        />
        <Field
          id="ach-confirm"
          label={t('confirmAccountNumber')}
          inputMode="numeric"
          autocomplete="off"
          value={v.confirm}
          maxLength={17}
          problem={shown('confirm')}
          onInput={digitsInto('confirm', 17)}
          onBlur={leave('confirm')}
        />
      </div>
      <fieldset class="pf-radios">
        <legend>{t('accountType')}</legend>
        {TYPES.map((type) => (
          <div class="pf-check" key={type}>
            <input
              type="radio"
              id={`ach-type-${type}`}
              name="ach-type"
              value={type}
              checked={v.accountType === type}
              onChange={() => set('accountType', type)}
            />
            <label for={`ach-type-${type}`}>{t(type)}</label>
          </div>
        ))}
      </fieldset>
      <Field
        id="ach-name"
        label={t('nameOnAccount')}
        autocomplete="name"
        value={v.name}
        maxLength={100}
        problem={shown('name')}
        onInput={(e) => set('name', e.currentTarget.value)}
        onBlur={leave('name')}
      />
      <div class="pf-check pf-authorize">
        <input
          id="ach-authorize"
          type="checkbox"
          checked={v.authorized}
          aria-invalid={auth ? 'true' : 'false'}
          aria-describedby={auth ? 'ach-authorize-error' : 'ach-timeline'}
          onChange={(e) => set('authorized', e.currentTarget.checked)}
        />
        <div>
          <label for="ach-authorize">{t('achAuthorize', { merchant, amount })}</label>
          <p class="pf-hint" id="ach-timeline">
            {t('achTimeline')}
          </p>
        </div>
      </div>
      <p class="pf-error" id="ach-authorize-error" aria-live={auth?.announce ? 'polite' : undefined}>
        {auth ? problemText(t, auth.problem) : null}
      </p>
      <FormSummary count={state.submitted ? state.count() : 0} />
      {children}
    </form>
  );
}
