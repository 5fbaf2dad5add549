/** Who is being paid and how much: merchant branding, the amount and the order number. */
import type { ComponentChildren } from 'preact';
import { websiteHost } from '../format.ts';
import { useI18n } from '../i18n/context.ts';

interface Props {
  merchant: string | null;
  logoUrl: string | null;
  /** The merchant's registered website: its host is shown beside the name. */
  website: string | null;
  amount: string;
  orderNumber: string | null;
  compact: boolean;
  /**
   * What the amount is: due (open), paid (the receipt below says so), or neither — an expired or
   * canceled session asks for nothing, so no "Amount due" (issue 14 §5).
   */
  standing: 'due' | 'paid' | 'ended';
  /** What is bought, shown above the amount. */
  children?: ComponentChildren;
}

/**
 * Only logos the page's CSP lets load: its own origin, data:, and the merchant's https logo (the
 * page route adds that exact origin to img-src); others would show as broken images.
 */
function loadableLogo(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url, location.href);
    return u.origin === location.origin || u.protocol === 'data:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

export function Header({
  merchant,
  logoUrl,
  website,
  amount,
  orderNumber,
  compact,
  standing,
  children,
}: Props) {
  const { t } = useI18n();
  const logo = loadableLogo(logoUrl);
  const host = merchant ? websiteHost(website) : null;
  return (
    <header class={compact ? 'pf-header pf-compact' : 'pf-header'}>
      <div class="pf-merchant">
        {logo ? <img src={logo} alt="" class="pf-logo" width={40} height={40} /> : null}
        <div>
          <h1 class="pf-merchant-name" data-testid="merchant-name">
            {merchant ?? t('paymentMethod')}
          </h1>
          {host ? (
            <p class="pf-merchant-host" data-testid="merchant-host">
              {host}
            </p>
          ) : null}
        </div>
      </div>
      {children}
      {standing === 'ended' ? null : (
        <p class="pf-amount-label">{t(standing === 'paid' ? 'amountPaid' : 'amountDue')}</p>
      )}
      <p class="pf-amount" data-testid="amount">
        {/* Left to right inside on a right-to-left page too ("25.00 US$", not "$US 25.00"). */}
        <bdi dir="ltr">{amount}</bdi>
      </p>
      {orderNumber ? <p class="pf-order">{t('order', { order: orderNumber })}</p> : null}
    </header>
  );
}
