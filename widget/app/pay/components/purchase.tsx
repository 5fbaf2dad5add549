/**
 * What is bought (issue 14 §4): the session's description and line items, above the amount. A
 * disclosure (details/summary) open on wide screens and closed on narrow ones, where the form comes
 * first; amounts are computed in cents (shared/money.ts), never floats.
 */
import type { LineItem } from '../../../../shared/checkout/line-items.ts';
import { fromCents, toCents } from '../../../../shared/money.ts';
import { formatMoney } from '../format.ts';
import { useI18n } from '../i18n/context.ts';

interface Props {
  description: string | null;
  lineItems: LineItem[] | null;
  currency: string | null;
}

export function Purchase({ description, lineItems, currency }: Props) {
  const { t, lang } = useI18n();
  const items = lineItems ?? [];
  if (!description && items.length === 0) return null;
  const wide = typeof matchMedia === 'function' && matchMedia('(min-width: 480px)').matches;
  return (
    <details class="pf-purchase" open={wide} data-testid="purchase">
      <summary>{description ?? t('orderSummary', { n: items.length })}</summary>
      {items.length > 0 ? (
        <ul class="pf-items">
          {items.map((item, i) => (
            <li key={i}>
              <span class="pf-item-name">
                {item.quantity > 1 ? t('itemTimes', { name: item.name, n: item.quantity }) : item.name}
              </span>
              <span class="pf-item-amount" dir="ltr">
                {formatMoney(fromCents(toCents(item.unitAmount) * BigInt(item.quantity)), currency, lang)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}
