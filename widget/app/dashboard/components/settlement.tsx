/**
 * Settlement: what awaits it (count and total), Settle now (asked first, with those figures), and
 * the batches settled so far, newest first.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { formatDateTime, formatMoney } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import { useLoad } from '../use-load.ts';
import { focusSoon } from './field.tsx';
import { LoadFailed, Loading, Page } from './page.tsx';
import { Confirm } from './payment-actions.tsx';

export function Settlement() {
  const { t, lang } = useI18n();
  const [loaded, reload] = useLoad(() => api.settlement(), []);
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const currency = loaded.state === 'ok' ? (loaded.data.currency ?? null) : null;
  const money = (amount: string) => formatMoney(amount, currency, lang);

  const settle = async () => {
    const res = await api.settle();
    if (res.ok === false && res.status === 401) return;
    setAsking(false);
    if (res.ok) {
      const { batchId, count, total } = res.data;
      setResult({
        ok: true,
        text: batchId
          ? t('settledBatch', { id: batchId, n: count, amount: money(total) })
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
                <dd>{money(loaded.data.pendingTotal)}</dd>
              </div>
            </dl>
            {loaded.data.pendingCount === 0 ? (
              <p>{t('nothingToSettle')}</p>
            ) : asking ? (
              <Confirm
                question={t('settleQuestion', {
                  n: loaded.data.pendingCount,
                  amount: money(loaded.data.pendingTotal),
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
                        <td>{money(b.total)}</td>
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
