/**
 * Overview: today's and the last 30 days' volume, approvals and declines as numbers, the daily
 * volume as a small chart, and the same figures as a table for whoever cannot see the chart.
 */
import { api } from '../api.ts';
import type { PaymentDay } from '../api-types.ts';
import { formatDay, formatMoney, sumAmounts } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import { useLoad } from '../use-load.ts';
import { useState } from 'preact/hooks';
import { BarChart } from './bar-chart.tsx';
import { Select } from './field.tsx';
import { LoadFailed, Loading, Page } from './page.tsx';

function Figures({
  title,
  day,
  currency,
  testId,
}: {
  title: string;
  day: Omit<PaymentDay, 'date'>;
  currency: string | null;
  testId: string;
}) {
  const { t, lang } = useI18n();
  const numbers = new Intl.NumberFormat(lang);
  return (
    <section class="pd-card" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <h2 id={`${testId}-title`}>{title}</h2>
      <dl class="pd-figures">
        <div>
          <dt>{t('volume')}</dt>
          <dd>{formatMoney(day.volume, currency, lang)}</dd>
        </div>
        <div>
          <dt>{t('approvals')}</dt>
          <dd>{numbers.format(day.approved)}</dd>
        </div>
        <div>
          <dt>{t('declines')}</dt>
          <dd>{numbers.format(day.declined)}</dd>
        </div>
      </dl>
    </section>
  );
}

export function Overview() {
  const { t, lang } = useI18n();
  // The figures are one currency's; a merchant paid in several chooses which (most used first).
  const [chosen, choose] = useState<string | undefined>(undefined);
  const [loaded, reload] = useLoad(() => api.overview(chosen), [chosen]);
  return (
    <Page title={t('overview')} testId="overview">
      {loaded.state === 'loading' ? <Loading /> : null}
      {loaded.state === 'failed' ? <LoadFailed retry={() => void reload()} /> : null}
      {loaded.state === 'ok'
        ? (() => {
            const { today, days, currencies } = loaded.data;
            const currency = loaded.data.currency;
            const month = {
              volume: sumAmounts(days.map((d) => d.volume)),
              approved: days.reduce((n, d) => n + d.approved, 0),
              declined: days.reduce((n, d) => n + d.declined, 0),
            };
            return (
              <>
                {currencies.length > 1 && currency ? (
                  <Select
                    id="overview-currency"
                    label={t('currency')}
                    value={currency}
                    onChange={choose}
                    options={currencies.map((c) => ({ value: c, label: c }))}
                  />
                ) : null}
                <div class="pd-cards">
                  <Figures
                    title={t('today')}
                    day={today ?? { volume: '0.00', approved: 0, declined: 0 }}
                    currency={currency}
                    testId="today"
                  />
                  <Figures title={t('last30')} day={month} currency={currency} testId="last-30-days" />
                </div>
                <section class="pd-card" aria-labelledby="chart-title">
                  <h2 id="chart-title">{t('chartTitle')}</h2>
                  <BarChart days={days} currency={currency} />
                  <details>
                    <summary>{t('showTable')}</summary>
                    <div class="pd-scroll" role="region" aria-labelledby="chart-title" tabIndex={0}>
                      <table>
                        <caption class="pd-visually-hidden">{t('chartTitle')}</caption>
                        <thead>
                          <tr>
                            <th scope="col">{t('date')}</th>
                            <th scope="col">{t('volume')}</th>
                            <th scope="col">{t('approvals')}</th>
                            <th scope="col">{t('declines')}</th>
                          </tr>
                        </thead>
                        <tbody>
                          {days.map((d) => (
                            <tr key={d.date}>
                              <th scope="row">{formatDay(d.date, lang)}</th>
                              <td>{formatMoney(d.volume, currency, lang)}</td>
                              <td>{d.approved}</td>
                              <td>{d.declined}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  </details>
                </section>
              </>
            );
          })()
        : null}
    </Page>
  );
}
