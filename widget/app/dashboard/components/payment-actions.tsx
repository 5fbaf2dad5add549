/**
 * Refund, void and capture, each asked first and then answered where it was asked: a refund or a
 * capture with its amount (prefilled with what remains; never more, the gateway checks again),
 * a void with the amount it cancels. The answer is announced in a live region that is always on
 * the page, and the payment is loaded again to show what changed. No answer (a network failure, a
 * 5xx) is said as "not known", never as a failure: the action may have gone through.
 */
import { useRef, useState } from 'preact/hooks';
import { api, type Result } from '../api.ts';
import type { PaymentDetail, TransactionResult } from '../api-types.ts';
import { amountProblem, formatMoney } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import { Confirm, NotNow } from './confirm.tsx';
import { Field, focusFirstInvalid, focusSoon } from './field.tsx';

type Action = 'refund' | 'void' | 'capture';

/** What the last action answered, as said to the user. */
export interface ActionResult {
  ok: boolean;
  text: string;
}

interface Props {
  detail: PaymentDetail;
  /** The payment is being read again: what may be done to it is not known until it is in. */
  busy: boolean;
  reload: () => Promise<void>;
  /**
   * The last action's answer, kept by the payment's page: when reading the payment again fails,
   * this section is gone but the answer is still said (payment.tsx).
   */
  result: ActionResult | null;
  onResult: (result: ActionResult | null) => void;
}

const hasAmount = (amount: string) => amountProblem(amount) === null;

export function PaymentActions({ detail, busy, reload, result, onResult: setResult }: Props) {
  const { t, lang } = useI18n();
  const [asking, setAsking] = useState<Action | null>(null);
  const p = detail.payment;
  const money = (amount: string) => formatMoney(amount, p.currency, lang);
  const available = {
    refund: hasAmount(detail.refundable),
    void: detail.voidable,
    capture: hasAmount(detail.capturable),
  };

  const ask = (action: Action) => {
    if (busy) return;
    setResult(null);
    setAsking(action);
    focusSoon(action === 'void' ? '#confirm-void' : `#${action}-amount`);
  };
  const dismiss = (action: Action) => {
    setAsking(null);
    focusSoon(`#action-${action}`);
  };

  const done = async (action: Action, amount: string, res: Result<TransactionResult>) => {
    if (res.ok === false && res.status === 401) return;
    let text: string;
    let ok = false;
    if (res.ok && res.data.approved) {
      ok = true;
      text =
        action === 'refund'
          ? t('refundApproved', { amount: money(amount) })
          : action === 'capture'
            ? t('captureApproved', { amount: money(amount) })
            : t('voidApproved');
    } else if (res.ok) text = t('actionRefused', { message: res.data.message });
    else if (res.kind === 'http') text = t('actionRefused', { message: res.error.message });
    else text = t('outcomeUnknown');
    setResult({ ok, text });
    // The question stays (busy) until the payment is read again: no second action is offered on
    // what remained before this one.
    await reload();
    setAsking(null);
    focusSoon('#actions-title');
  };

  const none = !available.refund && !available.void && !available.capture;
  return (
    <section aria-labelledby="actions-title" class="pd-card">
      <h2 id="actions-title" tabIndex={-1}>
        {t('actions')}
      </h2>
      <p
        role="status"
        class={result ? (result.ok ? 'pd-notice' : 'pd-alert') : 'pd-empty'}
        data-testid="action-result"
      >
        {result?.text}
      </p>
      {asking === null ? (
        none ? (
          <p>{t('noActions')}</p>
        ) : (
          <div class="pd-actions">
            {available.refund ? (
              <button type="button" id="action-refund" class="pd-button" onClick={() => ask('refund')}>
                {t('refund')}
              </button>
            ) : null}
            {available.void ? (
              <button type="button" id="action-void" class="pd-button" onClick={() => ask('void')}>
                {t('void')}
              </button>
            ) : null}
            {available.capture ? (
              <button type="button" id="action-capture" class="pd-button" onClick={() => ask('capture')}>
                {t('capture')}
              </button>
            ) : null}
          </div>
        )
      ) : null}
      {asking === 'refund' ? (
        <AmountForm
          id="refund-amount"
          label={t('refundAmount')}
          max={detail.refundable}
          confirm={t('confirmRefund')}
          onConfirm={async (amount) => done('refund', amount, await api.refund(p.id, amount))}
          onDismiss={() => dismiss('refund')}
        />
      ) : null}
      {asking === 'capture' ? (
        <AmountForm
          id="capture-amount"
          label={t('captureAmount')}
          max={detail.capturable}
          confirm={t('confirmCapture')}
          onConfirm={async (amount) => done('capture', amount, await api.capture(p.id, amount))}
          onDismiss={() => dismiss('capture')}
        />
      ) : null}
      {asking === 'void' ? (
        <Confirm
          question={t('voidQuestion', { amount: money(p.approvedAmount) })}
          confirmId="confirm-void"
          confirm={t('confirmVoid')}
          onConfirm={async () => done('void', p.approvedAmount, await api.void(p.id))}
          onDismiss={() => dismiss('void')}
        />
      ) : null}
    </section>
  );
}

interface AmountFormProps {
  id: string;
  label: string;
  max: string;
  confirm: string;
  onConfirm: (amount: string) => Promise<void>;
  onDismiss: () => void;
}

/** An amount up to what remains (prefilled with it), and the button that does it. */
function AmountForm({ id, label, max, confirm, onConfirm, onDismiss }: AmountFormProps) {
  const { t, lang } = useI18n();
  const form = useRef<HTMLFormElement>(null);
  const [amount, setAmount] = useState(max);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const limit = formatMoney(max, null, lang);
  return (
    <form
      ref={form}
      class="pd-form pd-confirm"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        if (busy) return;
        const typed = amount.trim();
        const problem = amountProblem(typed, max);
        if (problem) {
          setError(t(problem, { amount: limit }));
          return focusFirstInvalid(form.current);
        }
        setBusy(true);
        await onConfirm(typed);
        setBusy(false);
      }}
    >
      <Field
        id={id}
        label={label}
        hint={t('upTo', { amount: limit })}
        inputMode="decimal"
        autocomplete="off"
        value={amount}
        onInput={(e) => setAmount(e.currentTarget.value)}
        error={error}
      />
      <div class="pd-actions">
        <button type="submit" class="pd-button pd-primary" aria-disabled={busy ? 'true' : undefined}>
          {confirm}
        </button>
        <NotNow busy={busy} onDismiss={onDismiss} />
      </div>
    </form>
  );
}
