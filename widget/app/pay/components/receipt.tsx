/**
 * The receipt, and the way back to the merchant: a "Return to …" link to the signed ReturnUrl (full
 * page only; in embed mode the host page decides what happens next). Whether the page goes back by
 * itself is the merchant's setting (issue 14 §9, app.tsx): at once, or only when the shopper
 * chooses this link — never after a countdown.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { Receipt as ReceiptData } from '../../../../shared/checkout/index.ts';
import { formatDateTime, formatMoney } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import { BrandMark, markOf } from './brand-mark.tsx';

interface Props {
  receipt: ReceiptData;
  redirectUrl: string | null;
  merchant: string | null;
  /** Paid just now on this page (not a reload of a paid session). */
  fresh: boolean;
}

export function Receipt({ receipt, redirectUrl, merchant, fresh }: Props) {
  const { t, lang } = useI18n();
  const heading = useRef<HTMLHeadingElement>(null);
  const name = merchant ?? receipt.merchantName ?? t('theMerchant');

  useEffect(() => heading.current?.focus(), []);

  // A bank debit is not a card and has no approval code; it settles over days (issue 14 §5).
  const ach = receipt.method === 'ach';
  const last4 = (receipt.maskedCard ?? '').replace(/\D/g, '').slice(-4);
  // A card as the shopper knows it, "Visa ••4242", its brand from the typed field (issue 14 §3).
  const card = [receipt.cardBrand, last4 ? `••${last4}` : null].filter(Boolean).join(' ');
  // Codes and the amount keep their left-to-right order on a right-to-left page (issue 17).
  const ltr = (code: string | null) => (code ? <span dir="ltr">{code}</span> : null);
  const rows: [string, preact.ComponentChild][] = [
    [t('rMerchant'), receipt.merchantName ?? merchant],
    [t('rOrder'), ltr(receipt.orderNumber)],
    [t('rAmount'), <bdi dir="ltr">{formatMoney(receipt.amount, receipt.currency, lang)}</bdi>],
    ach
      ? [t('rBankAccount'), t('rAchProcessing', { account: last4 ? `••${last4}` : '' }).trim()]
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
    [t('rDate'), formatDateTime(receipt.paidAt, lang)],
    [t('rTransaction'), ltr(receipt.transactionId)],
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
