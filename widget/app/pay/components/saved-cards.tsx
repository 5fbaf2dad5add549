/**
 * Saved cards behind a one-time code (DESIGN.md §9, docs/merchant-guide.md "Saved cards"): the code
 * goes to the session's own contact (shown masked), the shopper types it, the wallet credential it
 * unlocks lists the cards; the CVV is typed again. A new code can be asked for after a visible delay.
 * Each card says its brand, last four and expiry once (its own name only when the shopper gave it
 * one), and can be removed from the wallet after a confirmation (issue 14 §6). A card that has
 * expired (the gateway leaves those out; one can run out while the page is open) is marked and
 * cannot be chosen, as Stripe's and Adyen's saved-card lists do; Remove still works on it. Where the
 * checkout cannot remove a card (spec mode: WidgetSession.capabilities), no Remove is offered.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PayBody, WalletCard } from '../../../../shared/checkout/index.ts';
import type { SessionApi } from '../api.ts';
import { cvvProblem, digitsOf, type Problem } from '../card.ts';
import { useI18n } from '../i18n/context.ts';
import { cardExpired, cardLabel, expiryText } from '../wallet-label.ts';
import { Field, focusFirstInvalid, focusSoon } from './field.tsx';

const RESEND_AFTER_S = 30;

interface Props {
  api: SessionApi;
  onSubmit: (body: PayBody, wallet: string) => void;
  /** Back to the card form: offered on every step, first in the box (no dead end). */
  onClose: () => void;
  /** false: the checkout cannot remove a saved card, so no Remove button is shown. */
  canRemove: boolean;
  children: ComponentChildren;
}

type Step =
  | { kind: 'sending' }
  | { kind: 'send-failed'; rateLimited: boolean }
  | { kind: 'code'; verificationId: string; to: string }
  | { kind: 'cards'; wallet: string; cards: WalletCard[] };

/** The cards that can still pay (see cardExpired), in the list's order. */
const usable = (cards: WalletCard[]) => cards.filter((c) => !cardExpired(c, new Date()));

export function SavedCards({ api, onSubmit, onClose, canRemove, children }: Props) {
  const { t, lang } = useI18n();
  const [step, setStep] = useState<Step>({ kind: 'sending' });
  const [code, setCode] = useState('');
  const [codeProblem, setCodeProblem] = useState<Problem | undefined>();
  const [wait, setWait] = useState(RESEND_AFTER_S);
  const [verifying, setVerifying] = useState(false);
  const [chosen, setChosen] = useState('');
  const [cvv, setCvv] = useState('');
  const [cvvTouched, setCvvTouched] = useState(false);
  /** The card whose removal is being confirmed; '' for none. */
  const [removing, setRemoving] = useState('');
  const [removeFailed, setRemoveFailed] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  const send = async () => {
    setStep({ kind: 'sending' });
    setCode('');
    setCodeProblem(undefined);
    const res = await api.sendCode(lang);
    if (!res.ok) return setStep({ kind: 'send-failed', rateLimited: res.status === 429 });
    const to = res.data.channels.map((c) => c.to).join(', ');
    setWait(RESEND_AFTER_S);
    setStep({ kind: 'code', verificationId: res.data.verificationId, to });
  };

  useEffect(() => void send(), []);
  useEffect(() => {
    if (step.kind !== 'code' || wait <= 0) return;
    const id = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(id);
  }, [step.kind, wait]);
  useEffect(() => {
    // Each step's first control gets focus, so keyboard and screen-reader users follow along.
    box.current
      ?.querySelector<HTMLElement>('input:not([type=radio]), input:checked, button:not(.pf-wallet-back)')
      ?.focus();
  }, [step.kind]);

  const verify = async (e: Event) => {
    e.preventDefault();
    if (step.kind !== 'code' || verifying) return;
    if (!/^\d{6}$/.test(code)) {
      setCodeProblem({ key: 'errCodeFormat' });
      return focusFirstInvalid(box.current);
    }
    setVerifying(true);
    const res = await api.verify(step.verificationId, code);
    if (!res.ok) {
      setVerifying(false);
      const burned = res.kind === 'http' && res.error.fields?.some((f) => f.code === 'code_expired');
      if (burned) setWait(0);
      setCodeProblem({
        key: burned
          ? 'errCodeBurned'
          : res.kind === 'http' && res.status !== 429
            ? 'errCodeWrong'
            : 'rateLimited',
      });
      return focusFirstInvalid(box.current);
    }
    const wallet = res.data.walletToken;
    const cards = await api.cards(wallet);
    setVerifying(false);
    const list = cards.ok ? cards.data.cards : [];
    setChosen(usable(list)[0]?.tokenGuid ?? '');
    setStep({ kind: 'cards', wallet, cards: list });
  };

  const remove = async (tokenGuid: string) => {
    if (step.kind !== 'cards') return;
    const res = await api.removeCard(step.wallet, tokenGuid);
    setRemoving('');
    setRemoveFailed(!res.ok);
    if (!res.ok) return;
    const cards = step.cards.filter((c) => c.tokenGuid !== tokenGuid);
    if (chosen === tokenGuid) setChosen(usable(cards)[0]?.tokenGuid ?? '');
    setStep({ ...step, cards });
    // The removed card's controls are gone: the list (or the message that it is empty) next.
    focusSoon('.pf-wallet input[name=saved-card], .pf-wallet [role=status]');
  };

  const card = step.kind === 'cards' ? usable(step.cards).find((c) => c.tokenGuid === chosen) : undefined;
  const cvvSize = /amex|american/i.test(card?.cardType ?? '') ? 4 : 3;
  const cvvErr = cvvTouched ? cvvProblem(cvv, cvvSize) : undefined;

  const pay = (e: Event) => {
    e.preventDefault();
    if (step.kind !== 'cards' || !card) return;
    setCvvTouched(true);
    if (cvvProblem(cvv, cvvSize)) return focusFirstInvalid(box.current);
    onSubmit({ method: 'saved', tokenGuid: card.tokenGuid, cvv }, step.wallet);
  };

  return (
    <div ref={box} class="pf-wallet" data-testid="wallet">
      <button type="button" class="pf-link pf-wallet-back" onClick={onClose}>
        <span aria-hidden="true" class="pf-back-arrow">
          ←
        </span>{' '}
        {t('useAnother')}
      </button>
      {step.kind === 'sending' ? <p role="status">{t('processing')}</p> : null}
      {step.kind === 'send-failed' ? (
        <p role="alert" class="pf-alert">
          {t(step.rateLimited ? 'rateLimited' : 'errCodeSend')}
        </p>
      ) : null}
      {step.kind === 'code' ? (
        <form onSubmit={verify} noValidate class="pf-form">
          <p role="status">{t('codeSentTo', { to: step.to })}</p>
          <Field
            id="otp-code"
            label={t('verificationCode')}
            autocomplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            value={code}
            problem={codeProblem && { problem: codeProblem, announce: false }}
            onInput={(e) => {
              setCode((e.currentTarget.value = digitsOf(e.currentTarget.value).slice(0, 6)));
              setCodeProblem(undefined);
            }}
          />
          <button type="submit" class="pf-button" disabled={verifying} aria-disabled={verifying}>
            {verifying ? t('processing') : t('verify')}
          </button>
          {wait > 0 ? (
            <p class="pf-hint" aria-live="off">
              {t('resendIn', { n: wait })}
            </p>
          ) : (
            <button type="button" class="pf-link" onClick={() => void send()}>
              {t('resend')}
            </button>
          )}
        </form>
      ) : null}
      {step.kind === 'cards' ? (
        step.cards.length === 0 ? (
          <p role="status">{t('noSavedCards')}</p>
        ) : (
          <form onSubmit={pay} noValidate class="pf-form">
            <fieldset class="pf-radios">
              <legend>{t('savedCards')}</legend>
              {step.cards.map((c) => {
                const label = cardLabel(c);
                const date = expiryText(c);
                const expired = cardExpired(c, new Date());
                return (
                  <div class={`pf-check pf-saved${expired ? ' pf-saved-expired' : ''}`} key={c.tokenGuid}>
                    <input
                      type="radio"
                      name="saved-card"
                      id={`saved-${c.tokenGuid}`}
                      checked={!expired && chosen === c.tokenGuid}
                      disabled={expired}
                      onChange={() => setChosen(c.tokenGuid)}
                    />
                    <label for={`saved-${c.tokenGuid}`}>
                      {date ? t(expired ? 'cardExpired' : 'cardExpires', { card: label, date }) : label}
                    </label>
                    {!canRemove ? null : removing === c.tokenGuid ? (
                      <span role="group" aria-label={t('removeQuestion', { card: label })} class="pf-remove">
                        <span aria-hidden="true">{t('removeQuestion', { card: label })} </span>
                        <button type="button" class="pf-link" onClick={() => void remove(c.tokenGuid)}>
                          {t('removeYes')}
                        </button>{' '}
                        <button
                          type="button"
                          class="pf-link pf-remove-no"
                          onClick={() => {
                            setRemoving('');
                            focusSoon(`#remove-${c.tokenGuid}`);
                          }}
                        >
                          {t('removeNo')}
                        </button>
                      </span>
                    ) : (
                      <button
                        type="button"
                        class="pf-link pf-remove"
                        id={`remove-${c.tokenGuid}`}
                        aria-label={t('removeCard', { card: label })}
                        onClick={() => {
                          setRemoving(c.tokenGuid);
                          focusSoon('.pf-remove-no'); // the safe answer
                        }}
                      >
                        {t('remove')}
                      </button>
                    )}
                  </div>
                );
              })}
            </fieldset>
            {removeFailed ? (
              <p role="alert" class="pf-alert">
                {t('errRemove')}
              </p>
            ) : null}
            <Field
              id="saved-csc"
              label={t('cvv')}
              hint={t('cvvHint', { n: cvvSize })}
              autocomplete="cc-csc"
              inputMode="numeric"
              maxLength={4}
              value={cvv}
              problem={cvvErr && { problem: cvvErr, announce: false }}
              onInput={(e) => setCvv((e.currentTarget.value = digitsOf(e.currentTarget.value).slice(0, 4)))}
              onBlur={() => setCvvTouched(true)}
            />
            {children}
          </form>
        )
      ) : null}
    </div>
  );
}
