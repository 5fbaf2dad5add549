/**
 * The receipt, and the way back to the merchant: a "Return to …" link to the signed ReturnUrl,
 * followed automatically after a visible countdown the shopper can stop (full page only; in embed
 * mode the host page decides what happens next).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Receipt as ReceiptData } from '../../../../shared/checkout/index.ts';
import { formatDateTime, formatMoney } from '../format.ts';
import { useI18n } from '../i18n/context.ts';

/**
 * Long enough for anyone to stop it (WCAG 2.2.1: at least 20 s to extend a time limit with a simple
 * action, here "Stay on this page"); the "Return to …" button goes at once.
 */
const COUNTDOWN_S = 20;

interface Props {
  receipt: ReceiptData;
  redirectUrl: string | null;
  merchant: string | null;
  /** Paid just now on this page (not a reload of a paid session). */
  fresh: boolean;
  autoRedirect: boolean;
}

export function Receipt({ receipt, redirectUrl, merchant, fresh, autoRedirect }: Props) {
  const { t, lang } = useI18n();
  const [left, setLeft] = useState<number | null>(fresh && autoRedirect && redirectUrl ? COUNTDOWN_S : null);
  const heading = useRef<HTMLHeadingElement>(null);
  const name = merchant ?? receipt.merchantName ?? t('theMerchant');

  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    if (left === null || !redirectUrl) return;
    if (left <= 0) {
      window.location.assign(redirectUrl);
      return;
    }
    const id = setTimeout(() => setLeft((n) => (n === null ? null : n - 1)), 1000);
    return () => clearTimeout(id);
  }, [left, redirectUrl]);

  // A bank debit is not a card and has no approval code; it settles over days (issue 14 §5).
  const ach = receipt.method === 'ach';
  const last4 = (receipt.maskedCard ?? '').replace(/\D/g, '').slice(-4);
  const rows: [string, string | null][] = [
    [t('rMerchant'), receipt.merchantName ?? merchant],
    [t('rOrder'), receipt.orderNumber],
    [t('rAmount'), formatMoney(receipt.amount, receipt.currency, lang)],
    ach
      ? [t('rBankAccount'), t('rAchProcessing', { account: last4 ? `••${last4}` : '' }).trim()]
      : [t('rCard'), receipt.maskedCard],
    [t('rApproval'), ach ? null : receipt.approvalCode],
    [t('rDate'), formatDateTime(receipt.paidAt, lang)],
    [t('rTransaction'), receipt.transactionId],
  ];

  return (
    <section class="pf-receipt" aria-labelledby="paid-title">
      <div class="pf-success-mark" aria-hidden="true">
        ✓
      </div>
      <h2 id="paid-title" tabIndex={-1} ref={heading}>
        {fresh ? t('paidTitle') : t('alreadyPaid')}
      </h2>
      <dl class="pf-receipt-list" aria-label={t('receipt')} data-testid="receipt">
        {rows
          .filter((r): r is [string, string] => Boolean(r[1]))
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      {redirectUrl ? (
        <div class="pf-return">
          <a class="pf-button" href={redirectUrl}>
            {t('returnTo', { merchant: name })}
          </a>
          {left !== null && left > 0 ? (
            <p role="timer" class="pf-countdown">
              {t('redirecting', { merchant: name, n: left })}{' '}
              <button type="button" class="pf-link" onClick={() => setLeft(null)}>
                {t('stayHere')}
              </button>
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
