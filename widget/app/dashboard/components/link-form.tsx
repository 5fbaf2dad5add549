/**
 * The new payment link's form: Amount, Order number, Customer e-mail (optional: the link is
 * e-mailed there), Description (optional), and how long it stays payable. Each field's error
 * from the server (the catalogue's `fields`) is shown on its input.
 */
import { useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { EXPIRY_DAYS, type NewLink, type PaymentLink } from '../api-types.ts';
import { amountProblem } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import { Field, focusFirstInvalid, Select } from './field.tsx';

type Errors = Partial<Record<'amount' | 'orderNumber' | 'email' | 'description', string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function LinkForm({
  onCreated,
}: {
  onCreated: (answer: { link: PaymentLink; qrSvg: string }) => void;
}) {
  const { t } = useI18n();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({
    amount: '',
    orderNumber: '',
    email: '',
    description: '',
    days: '7',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [name]: value }));

  const check = (): Errors => {
    const found: Errors = {};
    const amount = amountProblem(values.amount.trim());
    if (amount) found.amount = t(amount);
    if (!values.orderNumber.trim()) found.orderNumber = t('required');
    if (values.email.trim() && !EMAIL.test(values.email.trim())) found.email = t('emailInvalid');
    return found;
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const found = check();
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return focusFirstInvalid(form.current);
    const days = EXPIRY_DAYS.find((d) => String(d) === values.days) ?? 7;
    const body: NewLink = {
      amount: values.amount.trim(),
      orderNumber: values.orderNumber.trim(),
      expiresInDays: days,
      ...(values.email.trim() ? { email: values.email.trim() } : {}),
      ...(values.description.trim() ? { description: values.description.trim() } : {}),
    };
    setBusy(true);
    const res = await api.createLink(body);
    setBusy(false);
    if (res.ok) return onCreated(res.data);
    if (res.status === 401) return;
    if (res.kind === 'http' && res.error.fields?.length) {
      const fromServer: Errors = {};
      for (const f of res.error.fields) {
        if (f.field in values) fromServer[f.field as keyof Errors] = f.message;
      }
      setErrors(fromServer);
      if (Object.keys(fromServer).length > 0) return focusFirstInvalid(form.current);
    }
    setFailure(
      res.kind === 'http' ? t('actionRefused', { message: res.error.message }) : t('outcomeUnknown'),
    );
  };

  return (
    <form ref={form} class="pd-form pd-card" onSubmit={submit} noValidate data-testid="link-form">
      <div role="alert" class={failure ? 'pd-alert' : 'pd-empty'}>
        {failure}
      </div>
      <Field
        id="link-amount"
        label={t('amount')}
        inputMode="decimal"
        autocomplete="off"
        value={values.amount}
        onInput={(e) => set('amount')(e.currentTarget.value)}
        error={errors.amount}
      />
      <Field
        id="link-order"
        label={t('orderNumber')}
        autocomplete="off"
        value={values.orderNumber}
        onInput={(e) => set('orderNumber')(e.currentTarget.value)}
        error={errors.orderNumber}
      />
      <Field
        id="link-email"
        type="email"
        label={t('customerEmail')}
        optional
        autocomplete="off"
        value={values.email}
        onInput={(e) => set('email')(e.currentTarget.value)}
        error={errors.email}
      />
      <Field
        id="link-description"
        label={t('description')}
        optional
        autocomplete="off"
        value={values.description}
        onInput={(e) => set('description')(e.currentTarget.value)}
        error={errors.description}
      />
      <Select
        id="link-expiry"
        label={t('expiresAfter')}
        value={values.days}
        onChange={set('days')}
        options={EXPIRY_DAYS.map((d) => ({
          value: String(d),
          label: d === 1 ? t('oneDay') : t('days', { n: d }),
        }))}
      />
      <button type="submit" class="pd-button pd-primary" aria-disabled={busy ? 'true' : undefined}>
        {t('createLink')}
      </button>
    </form>
  );
}
