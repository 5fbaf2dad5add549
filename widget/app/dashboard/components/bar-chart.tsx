/**
 * The overview's chart: one bar a day, drawn by hand in SVG (no chart library). Heights are only
 * geometry: each day's cents as a share of the highest day's, so a float here never touches an
 * amount. The SVG is one image with a text alternative (the highest day); the figures themselves
 * are in a table under it.
 */
import { toCents } from '../../../../shared/money.ts';
import type { PaymentDay } from '../api-types.ts';
import { formatDay, formatMoney } from '../format.ts';
import { useI18n } from '../i18n/context.ts';

const WIDTH = 300;
const HEIGHT = 100;

export function BarChart({ days, currency }: { days: PaymentDay[]; currency: string | null }) {
  const { t, lang } = useI18n();
  const cents = days.map((d) => toCents(d.volume));
  const max = cents.reduce((m, c) => (c > m ? c : m), 0n);
  const highest = days[cents.indexOf(max)];
  const step = WIDTH / Math.max(days.length, 1);
  const label =
    max > 0n && highest
      ? t('chartAlt', {
          amount: formatMoney(highest.volume, currency, lang),
          date: formatDay(highest.date, lang),
        })
      : t('chartEmpty');
  return (
    <svg
      class="pd-chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={label}
      preserveAspectRatio="none"
      data-testid="volume-chart"
    >
      <line class="pd-chart-axis" x1={0} y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} />
      {cents.map((c, i) => {
        // At least a hairline for a day with volume, so a small day is not drawn as none.
        const h = max > 0n && c > 0n ? Math.max(1, (Number(c) / Number(max)) * (HEIGHT - 4)) : 0;
        return (
          <rect
            key={days[i]!.date}
            x={i * step + step * 0.15}
            y={HEIGHT - 1 - h}
            width={step * 0.7}
            height={h}
          />
        );
      })}
    </svg>
  );
}
