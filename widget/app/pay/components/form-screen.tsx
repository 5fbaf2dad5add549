/**
 * The payment form's screen: the method choice, the card form (and, behind a modest "Have a saved
 * card?" entry, the saved cards, with a way straight back), the bank form, the 3-D Secure
 * challenge over them, and "Cancel payment". What is said about a payment that did not go through
 * stands beside Pay, where the shopper is; a decline that concerns one field is at that field
 * (use-payment.ts). The payment itself runs in use-payment.ts; this screen gathers what to pay with.
 */
import { useState } from 'preact/hooks';
import type { PayBody, WidgetSession } from '../../../../shared/checkout/index.ts';
import { focusSoon } from '../../ui/focus.ts';
import type { ChallengeResult, SessionApi } from '../api.ts';
import { useI18n } from '../i18n/context.ts';
import type { ServerProblems } from '../server-problems.ts';
import type { PayAlert } from '../use-payment.ts';
import { AchForm } from './ach-form.tsx';
import { CancelControl } from './cancel-control.tsx';
import { useChunk } from '../use-chunk.ts';
import { CardForm } from './card-form.tsx';

interface Props {
  session: WidgetSession;
  api: SessionApi;
  /** The bank's challenge on show over the form (which stays mounted, hidden); null: none. */
  challenge: { challengeUrl: string; resultUrl: string } | null;
  onChallengeDone: (r: ChallengeResult) => void;
  expiringSoon: boolean;
  alert: PayAlert | null;
  onClearAlert: () => void;
  problems: ServerProblems;
  merchant: string | null;
  /** The amount as a sentence shows it (an isolate in a right-to-left one). */
  amountInText: string;
  onPay: (body: PayBody, wallet?: string) => void;
  /** A payment is under way: the Pay button says so, and the payment cannot be canceled meanwhile. */
  busy: boolean;
  /** The dashboard's preview: nothing can be paid or canceled. */
  preview: boolean;
  onCancel: () => void;
}

export function FormScreen({
  session: s,
  api,
  challenge,
  onChallengeDone,
  expiringSoon,
  alert,
  onClearAlert,
  problems,
  merchant,
  amountInText,
  onPay,
  busy,
  preview,
  onCancel,
}: Props) {
  const { t } = useI18n();
  const [method, setMethod] = useState<'card' | 'ach'>('card');
  const [walletOpen, setWalletOpen] = useState(false);
  const name = [s.shopper.firstName, s.shopper.lastName].filter(Boolean).join(' ');
  const methods: ('card' | 'ach')[] = s.methods.length > 0 ? s.methods : ['card'];
  const current = methods.includes(method) ? method : methods[0]!;
  const canWallet = Boolean(s.shopper.email) && current === 'card';
  // Chunks of their own, fetched once the page is up when it may show them.
  const SavedCards = useChunk(() => import('./saved-cards.tsx').then((m) => m.SavedCards), canWallet);
  const Challenge = useChunk(
    () => import('./challenge.tsx').then((m) => m.Challenge),
    s.threeDSecure || challenge !== null,
  );

  // Beside Pay: the decline or failure (a title on its own line, so no language's punctuation is
  // added to it), then the button.
  const payArea = (
    <>
      <div class="pf-alert-region" role="alert" data-testid="alert">
        {alert ? (
          <div class="pf-alert" tabIndex={-1}>
            {alert.title ? <strong class="pf-alert-title">{alert.title}</strong> : null}
            <span>{alert.text}</span>
          </div>
        ) : null}
      </div>
      <button
        type="submit"
        class="pf-button pf-pay"
        disabled={preview}
        aria-disabled={busy ? 'true' : 'false'}
        data-busy={busy ? 'true' : undefined}
      >
        {busy ? (
          <>
            <span class="pf-spinner pf-spinner-inline" aria-hidden="true" />
            {t('processing')}
          </>
        ) : (
          t('pay', { amount: amountInText })
        )}
      </button>
    </>
  );

  return (
    <>
      {challenge && !Challenge ? (
        <p role="status" class="pf-loading">
          <span class="pf-spinner" aria-hidden="true" />
          {t('tdsTitle')}
        </p>
      ) : null}
      {challenge && Challenge ? (
        <Challenge
          challengeUrl={challenge.challengeUrl}
          resultUrl={challenge.resultUrl}
          onDone={onChallengeDone}
          onCancel={() =>
            onChallengeDone({ status: 'failed', cavv: null, eci: null, xid: null, dsTransactionId: null })
          }
        />
      ) : null}
      {/* Kept mounted under the challenge so the details survive a failed verification. */}
      <div hidden={challenge !== null} class="pf-pay-area">
        <div aria-live="polite" data-testid="expiry-warning">
          {expiringSoon ? <p class="pf-warning">{t('expiringSoon')}</p> : null}
        </div>
        {methods.length > 1 ? (
          <fieldset class="pf-methods">
            <legend class="pf-sr">{t('paymentMethod')}</legend>
            {methods.map((m) => (
              <div class="pf-method" key={m}>
                <input
                  type="radio"
                  name="method"
                  id={`method-${m}`}
                  checked={current === m}
                  onChange={() => {
                    setMethod(m);
                    onClearAlert();
                  }}
                />
                <label for={`method-${m}`}>
                  <span class={`pf-method-icon pf-method-${m}`} aria-hidden="true" />
                  {m === 'card' ? t('methodCard') : t('methodAch')}
                </label>
              </div>
            ))}
          </fieldset>
        ) : null}
        {canWallet && walletOpen && !SavedCards ? <p role="status">{t('processing')}</p> : null}
        {canWallet && walletOpen && SavedCards ? (
          <SavedCards
            api={api}
            canRemove={s.capabilities?.removeSavedCard !== false}
            onSubmit={onPay}
            onClose={() => {
              setWalletOpen(false);
              onClearAlert();
              focusSoon('#cc-number');
            }}
          >
            {payArea}
          </SavedCards>
        ) : null}
        {canWallet && !walletOpen ? (
          <p class="pf-saved-entry">
            {t('haveSaved')}{' '}
            <button type="button" class="pf-link pf-use-saved" onClick={() => setWalletOpen(true)}>
              {t('getCode')}
            </button>
          </p>
        ) : null}
        <div hidden={current !== 'card' || walletOpen}>
          <CardForm
            asks={{ name: s.nameOnCardRequired, postalCode: s.postalCode === 'required' }}
            initialName={name}
            initialZip={s.shopper.zipCode ?? ''}
            saveFor={s.shopper.email}
            serverProblems={problems.card}
            onSubmit={(b) => onPay(b)}
          >
            {current === 'card' && !walletOpen ? payArea : null}
          </CardForm>
        </div>
        {current === 'ach' ? (
          <AchForm
            initialName={name}
            merchant={merchant ?? t('theMerchant')}
            amount={amountInText}
            serverProblems={problems.ach}
            onSubmit={(b) => onPay(b)}
          >
            {payArea}
          </AchForm>
        ) : null}
        {/* Not offered where the checkout cannot cancel (spec mode): the back link leaves without it. */}
        {s.capabilities?.cancel === false ? null : (
          <CancelControl disabled={busy || preview} onConfirm={onCancel} />
        )}
      </div>
    </>
  );
}
