/**
 * The order: who is paid (the merchant's logo, or a monogram in its brand colour, its name and
 * host), the amount, and what is bought (description, line items, total, order number). At 960 px
 * and wider it is the page's first pane, beside the payment (checkout-design.md "Layout"); below,
 * a bar — "Total $49.99 · Details" — whose details open on demand, so the form comes first. One
 * markup for both, chosen by the stylesheet: the server renders it without knowing the width.
 * Amounts are computed in cents (shared/money.ts), never floats.
 */
import { useState } from 'preact/hooks';
import type { WidgetSession } from '../../../../shared/checkout/index.ts';
import { fromCents, toCents } from '../../../../shared/money.ts';
import { formatMoney, websiteHost } from '../format.ts';
import { useI18n } from '../i18n/context.ts';

interface Props {
  session: WidgetSession;
  /** What the amount is: due (open), paid, or neither — an ended session asks for nothing. */
  standing: 'due' | 'paid' | 'ended';
  /** "← Back to {merchant}" (the hosted page, while the session can be paid); null: none. */
  backLink: preact.ComponentChild;
  /** The page's own origin: a logo there, on data:, or on https is shown (the CSP allows those). */
  origin: string;
}

/** Only logos the page's CSP lets load: its own origin, data:, and the merchant's https logo. */
export function loadableLogo(url: string | null, origin: string): string | null {
  if (!url) return null;
  try {
    const u = new URL(url, origin);
    return u.origin === origin || u.protocol === 'data:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** The merchant's initial, for a merchant without a logo: its first letter, as a person reads it. */
export function monogramOf(name: string | null): string {
  const first = [...(name ?? '').trim()][0] ?? '';
  return first.toLocaleUpperCase();
}

export function OrderSummary({ session: s, standing, backLink, origin }: Props) {
  const { t, lang } = useI18n();
  const [open, setOpen] = useState(false);
  const logo = loadableLogo(s.merchant.logoUrl, origin);
  const name = s.merchant.name;
  const host = name ? websiteHost(s.merchant.website) : null;
  const items = s.lineItems ?? [];
  const amount = formatMoney(s.amount, s.currency, lang);
  const hasDetails = items.length > 0 || Boolean(s.description) || Boolean(s.orderNumber);
  const label = t(standing === 'paid' ? 'amountPaid' : 'amountDue');

  return (
    <header class="pf-order" data-testid="order">
      <div class="pf-order-inner">
        {backLink}
        <div class="pf-merchant">
          {logo ? (
            <img src={logo} alt="" class="pf-logo" width={40} height={40} />
          ) : (
            <span class="pf-monogram" aria-hidden="true">
              {monogramOf(name ?? t('theMerchant'))}
            </span>
          )}
          <div class="pf-merchant-text">
            <h1 class="pf-merchant-name" data-testid="merchant-name">
              {name ?? t('paymentMethod')}
            </h1>
            {host ? (
              <p class="pf-merchant-host" data-testid="merchant-host">
                {host}
              </p>
            ) : null}
          </div>
        </div>
        <div class="pf-total">
          <div>
            {standing === 'ended' ? null : <p class="pf-amount-label">{label}</p>}
            <p class="pf-amount" data-testid="amount">
              {/* Left to right inside on a right-to-left page too ("25.00 US$", not "$US 25.00"). */}
              <bdi dir="ltr">{amount}</bdi>
            </p>
          </div>
          {hasDetails ? (
            <button
              type="button"
              class="pf-details-toggle"
              aria-expanded={open ? 'true' : 'false'}
              aria-controls="pf-order-details"
              onClick={() => setOpen(!open)}
            >
              {t(open ? 'hideDetails' : 'showDetails')}
            </button>
          ) : null}
        </div>
        {hasDetails ? (
          <div
            id="pf-order-details"
            class="pf-details"
            data-open={open ? 'true' : 'false'}
            data-testid="purchase"
          >
            {s.description ? <p class="pf-description">{s.description}</p> : null}
            {items.length > 0 ? (
              <ul class="pf-items" aria-label={t('orderSummary', { n: items.length })}>
                {items.map((item, i) => (
                  <li key={i}>
                    <span class="pf-item-name">
                      {item.quantity > 1 ? t('itemTimes', { name: item.name, n: item.quantity }) : item.name}
                    </span>
                    <span class="pf-item-amount" dir="ltr">
                      {formatMoney(
                        fromCents(toCents(item.unitAmount) * BigInt(item.quantity)),
                        s.currency,
                        lang,
                      )}
                    </span>
                  </li>
                ))}
                <li class="pf-items-total">
                  <span>{t('total')}</span>
                  <span class="pf-item-amount" dir="ltr">
                    {amount}
                  </span>
                </li>
              </ul>
            ) : null}
            {s.orderNumber ? <p class="pf-order-number">{t('order', { order: s.orderNumber })}</p> : null}
          </div>
        ) : null}
      </div>
    </header>
  );
}
