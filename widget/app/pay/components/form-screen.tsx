/**
 * The payment form's screen (moved out of app.tsx): the method choice, the card form, the saved
 * cards, the bank form, the 3-D Secure challenge above them, "Cancel payment" and the alerts. The
 * payment itself runs in App; this screen only gathers what to pay with.
 */
import { useState } from 'preact/hooks';
import type { PayBody, WidgetSession } from '../../../../shared/checkout/index.ts';
import type { ChallengeResult, SessionApi } from '../api.ts';
import { useI18n } from '../i18n/context.ts';
import type { ServerProblems } from '../server-problems.ts';
import { AchForm } from './ach-form.tsx';
import { CardForm } from './card-form.tsx';
import { CancelControl } from './cancel-control.tsx';
import { Challenge } from './challenge.tsx';
import { focusSoon } from './field.tsx';
import { SavedCards } from './saved-cards.tsx';

interface Props {
  session: WidgetSession;
  api: SessionApi;
  /** The bank's challenge on show over the form (which stays mounted, hidden); null: none. */
  challenge: { challengeUrl: string; resultUrl: string } | null;
  onChallengeDone: (r: ChallengeResult) => void;
  expiringSoon: boolean;
  alert: { title?: string; text: string } | null;
  onClearAlert: () => void;
  problems: ServerProblems;
  merchant: string | null;
  /** The amount as a sentence shows it (an isolate in a right-to-left one). */
  amountInText: string;
  onPay: (body: PayBody, wallet?: string) => void;
  onInvalid: (count: number) => void;
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
  onInvalid,
  busy,
  preview,
  onCancel,
}: Props) {
  const { t } = useI18n();
  const [method, setMethod] = useState<'card' | 'ach'>('card');
  const [walletOpen, setWalletOpen] = useState(false);
  const name = [s.shopper.firstName, s.shopper.lastName].filter(Boolean).join(' ');
  const canWallet = Boolean(s.shopper.email) && method === 'card';
  const methods: ('card' | 'ach')[] = s.methods.length > 0 ? s.methods : ['card'];
  const current = methods.includes(method) ? method : methods[0]!;
  const payButton = (
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
  );

  return (
    <>
      {challenge ? (
        <Challenge
          challengeUrl={challenge.challengeUrl}
          resultUrl={challenge.resultUrl}
          onDone={onChallengeDone}
          onCancel={() =>
            onChallengeDone({
              status: 'failed',
              cavv: null,
              eci: null,
              xid: null,
              dsTransactionId: null,
            })
          }
        />
      ) : null}
      {/* Kept mounted under the challenge so the details survive a failed verification. */}
      <div hidden={challenge !== null} class="pf-pay-area">
        <div aria-live="polite" data-testid="expiry-warning">
          {expiringSoon ? <p class="pf-warning">{t('expiringSoon')}</p> : null}
        </div>
        <div class="pf-alert-region" role="alert" data-testid="alert">
          {alert ? (
            <div class="pf-alert" tabIndex={-1}>
              {alert.title ? <strong>{alert.title}. </strong> : null}
              {alert.text}
            </div>
          ) : null}
        </div>
        {methods.length > 1 ? (
          <fieldset class="pf-methods">
            <legend>{t('paymentMethod')}</legend>
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
                <label for={`method-${m}`}>{m === 'card' ? t('methodCard') : t('methodAch')}</label>
              </div>
            ))}
          </fieldset>
        ) : null}
        {current === 'card' && walletOpen ? (
          <SavedCards
            api={api}
            canRemove={s.capabilities?.removeSavedCard !== false}
            onSubmit={onPay}
            onInvalid={onInvalid}
            onClose={() => {
              setWalletOpen(false);
              onClearAlert();
              focusSoon('.pf-use-saved');
            }}
          >
            {payButton}
          </SavedCards>
        ) : null}
        {current === 'card' && !walletOpen && canWallet ? (
          <button
            type="button"
            class="pf-button pf-secondary pf-use-saved"
            onClick={() => setWalletOpen(true)}
          >
            {t('useSaved')}
          </button>
        ) : null}
        <div hidden={current !== 'card' || walletOpen}>
          <CardForm
            askName={s.nameOnCardRequired}
            initialName={name}
            initialZip={s.shopper.zipCode ?? ''}
            saveFor={s.shopper.email}
            serverProblems={problems.card}
            onSubmit={(b) => onPay(b)}
            onInvalid={onInvalid}
          >
            {payButton}
          </CardForm>
        </div>
        {current === 'ach' ? (
          <AchForm
            initialName={name}
            merchant={merchant ?? t('theMerchant')}
            amount={amountInText}
            serverProblems={problems.ach}
            onSubmit={(b) => onPay(b)}
            onInvalid={onInvalid}
          >
            {payButton}
          </AchForm>
        ) : null}
        {/* Not offered where the checkout cannot cancel (spec mode): the back link leaves without it. */}
        {s.capabilities?.cancel === false ? null : (
          <CancelControl disabled={busy || preview} onConfirm={onCancel} />
        )}
        <p class="pf-secured" data-testid="secured">
          <svg aria-hidden="true" viewBox="0 0 16 16" width="12" height="12">
            <path fill="currentColor" d="M4 7V5a4 4 0 1 1 8 0v2h1v8H3V7h1Zm2 0h4V5a2 2 0 1 0-4 0v2Z" />
          </svg>{' '}
          {t('securedBy')}
        </p>
      </div>
    </>
  );
}
