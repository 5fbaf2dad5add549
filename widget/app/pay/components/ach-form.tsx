/** Bank account (ACH) entry: ABA routing checksum, 4–17 digit account, type, name, authorisation. */
import type { ComponentChildren } from 'preact';
import type { PayBody } from '../../../../shared/checkout/index.ts';
import { type AchValues, achProblems, digitsOf, type Problems } from '../card.ts';
import { useI18n } from '../i18n/context.ts';
import { Field } from './field.tsx';
import { useFormState } from './form-state.ts';

interface Props {
  initialName: string;
  merchant: string;
  amount: string;
  serverProblems: Problems<AchValues>;
  onSubmit: (body: PayBody) => void;
  onInvalid: (count: number) => void;
  children: ComponentChildren;
}

const TYPES = ['checking', 'savings', 'businessChecking'] as const;

export function AchForm({
  initialName,
  merchant,
  amount,
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
  } = useFormState<AchValues>(
    { routing: '', account: '', accountType: 'checking', name: initialName, authorized: false },
    achProblems,
    serverProblems,
    onInvalid,
  );

  const submit = (e: Event) => {
    e.preventDefault();
    if (!validate()) return;
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
  const authProblem = shown('authorized');

  return (
    <form ref={form} onSubmit={submit} noValidate class="pf-form" aria-label={t('methodAch')}>
      <Field
        id="ach-routing"
        label={t('routingNumber')}
        hint={t('routingHint')}
        inputMode="numeric"
        autocomplete="off"
        value={v.routing}
        maxLength={9}
        problem={shown('routing')}
        onInput={(e) => set('routing', (e.currentTarget.value = digitsOf(e.currentTarget.value).slice(0, 9)))}
        onBlur={blur('routing')}
      />
      <Field
        id="ach-account"
        label={t('accountNumber')}
        inputMode="numeric"
        autocomplete="off"
        value={v.account}
        maxLength={17}
        problem={shown('account')}
        onInput={(e) =>
          set('account', (e.currentTarget.value = digitsOf(e.currentTarget.value).slice(0, 17)))
        }
        onBlur={blur('account')}
      />
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
        onBlur={blur('name')}
      />
      <div class="pf-check pf-authorize">
        <input
          id="ach-authorize"
          type="checkbox"
          checked={v.authorized}
          aria-invalid={authProblem ? 'true' : 'false'}
          aria-describedby={authProblem ? 'ach-authorize-error' : undefined}
          onChange={(e) => set('authorized', e.currentTarget.checked)}
        />
        <label for="ach-authorize">{t('achAuthorize', { merchant, amount })}</label>
      </div>
      <p class="pf-error" id="ach-authorize-error" aria-live="polite">
        {authProblem ? t(authProblem.key) : null}
      </p>
      {children}
    </form>
  );
}
