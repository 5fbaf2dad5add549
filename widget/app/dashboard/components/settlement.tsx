/**
 * Settlement: what awaits it (count and total), Settle now (asked first, with those figures), and
 * the batches settled so far, newest first.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { CurrencyAmount } from '../api-types.ts';
import { formatDateTime, formatMoney } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import { useMayActOnPayments } from '../role.ts';
import { useLoad } from '../use-load.ts';
import { focusSoon } from './field.tsx';
import { LoadFailed, Loading, Page } from './page.tsx';
import { Confirm } from './confirm.tsx';

export function Settlement() {
  const { t, lang } = useI18n();
  const mayAct = useMayActOnPayments();
  const [loaded, reload] = useLoad(() => api.settlement(), []);
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  // Each currency's net on its own (a batch settles every currency pending); none: nothing.
  const money = (totals: CurrencyAmount[]) =>
    totals.length === 0
      ? formatMoney('0.00', null, lang)
      : totals.map((a) => formatMoney(a.amount, a.currency, lang)).join(' + ');

  const settle = async () => {
    const res = await api.settle();
    if (res.ok === false && res.status === 401) return;
    setAsking(false);
    if (res.ok) {
      const { batchId, count, totals } = res.data;
      setResult({
        ok: true,
        text: batchId
          ? t('settledBatch', { id: batchId, n: count, amount: money(totals) })
          : t('nothingToSettle'),
      });
    } else {
      setResult({
        ok: false,
        text: res.kind === 'http' ? t('actionRefused', { message: res.error.message }) : t('outcomeUnknown'),
      });
    }
    await reload();
    focusSoon('#settlement-title');
  };

  return (
    <Page title={t('settlement')} testId="settlement">
      <p
        role="status"
        class={result ? (result.ok ? 'pd-notice' : 'pd-alert') : 'pd-empty'}
        data-testid="settle-result"
      >
        {result?.text}
      </p>
      {loaded.state === 'loading' ? <Loading /> : null}
      {loaded.state === 'failed' ? <LoadFailed retry={() => void reload()} /> : null}
      {loaded.state === 'ok' ? (
        <>
          <section class="pd-card" aria-labelledby="pending-title" data-testid="pending">
            <h2 id="pending-title">{t('pending')}</h2>
            <dl class="pd-figures">
              <div>
                <dt>{t('transactions')}</dt>
                <dd>{new Intl.NumberFormat(lang).format(loaded.data.pendingCount)}</dd>
              </div>
              <div>
                <dt>{t('total')}</dt>
                <dd>{money(loaded.data.pendingTotals)}</dd>
              </div>
            </dl>
            {loaded.data.pendingCount === 0 ? (
              <p>{t('nothingToSettle')}</p>
            ) : !mayAct ? null : asking ? (
              <Confirm
                question={t('settleQuestion', {
                  n: loaded.data.pendingCount,
                  amount: money(loaded.data.pendingTotals),
                })}
                confirmId="confirm-settle"
                confirm={t('confirmSettle')}
                onConfirm={settle}
                onDismiss={() => {
                  setAsking(false);
                  focusSoon('#settle-now');
                }}
              />
            ) : (
              <button
                type="button"
                id="settle-now"
                class="pd-button pd-primary"
                onClick={() => {
                  setResult(null);
                  setAsking(true);
                  focusSoon('#confirm-settle');
                }}
              >
                {t('settleNow')}
              </button>
            )}
          </section>
          <section aria-labelledby="batches-title">
            <h2 id="batches-title">{t('batches')}</h2>
            {loaded.data.batches.length === 0 ? (
              <p>{t('noBatches')}</p>
            ) : (
              <div class="pd-scroll" role="region" aria-labelledby="batches-title" tabIndex={0}>
                <table data-testid="batches">
                  <thead>
                    <tr>
                      <th scope="col">{t('batch')}</th>
                      <th scope="col">{t('settledAt')}</th>
                      <th scope="col">{t('transactions')}</th>
                      <th scope="col">{t('total')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {loaded.data.batches.map((b) => (
                      <tr key={b.id}>
                        <th scope="row">{b.id}</th>
                        <td>{formatDateTime(b.settledAt, lang)}</td>
                        <td>{b.count}</td>
                        <td>{money(b.totals)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      ) : null}
    </Page>
  );
}
