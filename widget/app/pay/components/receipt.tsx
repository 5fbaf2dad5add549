/**
 * The receipt, and the way back to the merchant: a "Return to …" link to the signed ReturnUrl (full
 * page only; in embed mode the host page decides what happens next). Whether the page goes back by
 * itself is the merchant's setting (app.tsx): at once, or only when the shopper chooses this link —
 * never after a countdown.
 *
 * Honest about what happened: a card approved is "Payment successful"; a bank debit (ACH) has only
 * been submitted — it settles over business days and can still be returned — so it says so, with
 * the bank's timeline, and no check mark. A card saved to the shopper's wallet is said, with the
 * address it was saved for.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { Receipt as ReceiptData } from '../../../../shared/checkout/index.ts';
import { formatDateTime, formatMoney } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import { BrandMark, markOf } from './brand-mark.tsx';
import { maskEmail } from './card-form.tsx';

interface Props {
  receipt: ReceiptData;
  redirectUrl: string | null;
  merchant: string | null;
  /** Paid just now on this page (not a reload of a paid session). */
  fresh: boolean;
  /** The session's e-mail: where a card saved with this payment was saved. */
  savedFor: string | null;
}

export function Receipt({ receipt, redirectUrl, merchant, fresh, savedFor }: Props) {
  const { t, lang } = useI18n();
  const heading = useRef<HTMLHeadingElement>(null);
  const name = merchant ?? receipt.merchantName ?? t('theMerchant');

  useEffect(() => heading.current?.focus(), []);

  const ach = receipt.method === 'ach';
  const last4 = (receipt.maskedCard ?? '').replace(/\D/g, '').slice(-4);
  // A card as the shopper knows it, "Visa ••4242", its brand from the typed field.
  const card = [receipt.cardBrand, last4 ? `••${last4}` : null].filter(Boolean).join(' ');
  // Codes and the amount keep their left-to-right order on a right-to-left page.
  const ltr = (code: string | null) => (code ? <span dir="ltr">{code}</span> : null);
  const rows: [string, preact.ComponentChild][] = [
    [t('rMerchant'), receipt.merchantName ?? merchant],
    [t('rOrder'), ltr(receipt.orderNumber)],
    [t('rAmount'), <bdi dir="ltr">{formatMoney(receipt.amount, receipt.currency, lang)}</bdi>],
    ach
      ? [t('rBankAccount'), last4 ? <span dir="ltr">••{last4}</span> : null]
      : [
          t('rCard'),
          card ? (
            <span class="pf-card-name" data-testid="receipt-card" dir="ltr">
              <BrandMark type={markOf(receipt.cardBrand)} />
              {card}
            </span>
          ) : null,
        ],
    [t('rApproval'), ach ? null : ltr(receipt.approvalCode)],
    [t(ach ? 'rSubmitted' : 'rDate'), formatDateTime(receipt.paidAt, lang)],
    [t('rTransaction'), ltr(receipt.transactionId)],
  ];
  const title = ach ? t('achSubmittedTitle') : fresh ? t('paidTitle') : t('alreadyPaid');

  return (
    <section class={ach ? 'pf-receipt pf-receipt-ach' : 'pf-receipt'} aria-labelledby="paid-title">
      <div
        class={ach ? 'pf-status-mark pf-pending-mark' : 'pf-status-mark pf-success-mark'}
        aria-hidden="true"
      >
        {ach ? '…' : '✓'}
      </div>
      <h2 id="paid-title" tabIndex={-1} ref={heading}>
        {title}
      </h2>
      {ach ? (
        <p class="pf-receipt-note" data-testid="ach-timeline">
          {t('achSubmittedBody', { merchant: name })}
        </p>
      ) : null}
      {receipt.cardSaved && savedFor ? (
        <p class="pf-receipt-note" data-testid="card-saved">
          {t('cardSavedFor', { to: maskEmail(savedFor) })}
        </p>
      ) : null}
      <dl class="pf-receipt-list" aria-label={t('receipt')} data-testid="receipt">
        {rows
          .filter((r) => Boolean(r[1]))
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
        </div>
      ) : null}
    </section>
  );
}
