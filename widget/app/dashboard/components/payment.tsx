/**
 * One payment: what was paid, by whom and how, its timeline, its webhook deliveries, and what may
 * still be done to it (payment-actions.tsx). Another merchant's id answers 404, shown as not found.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { PaymentDetail } from '../api-types.ts';
import { formatDateTime, formatMoney } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import { avsLabel, eventLabel, methodLabel, stateLabel, webhookStatusLabel } from '../labels.ts';
import { href } from '../route.ts';
import { useLoad } from '../use-load.ts';
import { useMayActOnPayments } from '../role.ts';
import { LoadFailed, Loading, Page } from './page.tsx';
import { type ActionResult, PaymentActions } from './payment-actions.tsx';

export function PaymentView({ id }: { id: string }) {
  const { t } = useI18n();
  const mayAct = useMayActOnPayments();
  const [loaded, reload] = useLoad(() => api.payment(id), [id]);
  const [result, setResult] = useState<ActionResult | null>(null);
  const back = (
    <p>
      <a href={href('/payments')}>{t('backToPayments')}</a>
    </p>
  );
  if (loaded.state === 'failed' && loaded.status === 404) {
    return (
      <Page title={t('paymentNotFound')} testId="payment-not-found">
        {back}
      </Page>
    );
  }
  return (
    <Page title={t('paymentTitle', { id })} testId="payment">
      {back}
      {loaded.state === 'loading' ? <Loading /> : null}
      {loaded.state === 'failed' && result ? (
        // The action was answered, then reading the payment again failed: its answer still stands.
        <p role="alert" class={result.ok ? 'pd-notice' : 'pd-alert'} data-testid="action-result">
          {result.text}
        </p>
      ) : null}
      {loaded.state === 'failed' ? <LoadFailed retry={() => void reload()} /> : null}
      {loaded.state === 'ok' ? (
        <>
          <Details detail={loaded.data} />
          {mayAct ? (
            <PaymentActions
              detail={loaded.data}
              busy={loaded.busy}
              reload={reload}
              result={result}
              onResult={setResult}
            />
          ) : null}
          <Timeline detail={loaded.data} />
          <Webhooks detail={loaded.data} />
        </>
      ) : null}
    </Page>
  );
}

function Details({ detail }: { detail: PaymentDetail }) {
  const { t, lang } = useI18n();
  const p = detail.payment;
  const money = (amount: string) => formatMoney(amount, p.currency, lang);
  const rows: [string, string | undefined][] = [
    [t('amount'), money(p.amount)],
    [t('status'), stateLabel(t, p.state)],
    [t('kind'), p.kind === 'Sale' ? t('kindSale') : t('kindAuthorization')],
    [t('method'), methodLabel(t, p)],
    [t('addressCheck'), p.method === 'Card' && p.state !== 'Declined' ? avsLabel(t, p.avs) : undefined],
    [t('shopper'), [p.customerName, p.customerEmail].filter(Boolean).join(', ') || undefined],
    [t('orderNumber'), p.orderNumber],
    [t('approvedAmount'), money(p.approvedAmount)],
    [t('capturedAmount'), money(p.capturedAmount)],
    [t('refundedAmount'), money(p.refundedAmount)],
    [t('responseCode'), p.responseCode],
    [t('created'), formatDateTime(p.createdAt, lang)],
  ];
  return (
    <dl class="pd-facts" data-testid="payment-details">
      {rows
        .filter((row): row is [string, string] => Boolean(row[1]))
        .map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

function Timeline({ detail }: { detail: PaymentDetail }) {
  const { t, lang } = useI18n();
  return (
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">{t('timeline')}</h2>
      <ol class="pd-timeline" data-testid="timeline">
        {detail.events.map((e, i) => (
          <li key={i}>
            <span class="pd-event">{eventLabel(t, e.kind)}</span>
            {e.amount ? <span> · {formatMoney(e.amount, detail.payment.currency, lang)}</span> : null}
            {e.responseCode ? (
              <span>
                {' '}
                · {t('responseCode')} {e.responseCode}
              </span>
            ) : null}
            <br />
            <time class="pd-muted" dateTime={e.at}>
              {formatDateTime(e.at, lang)}
            </time>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Webhooks({ detail }: { detail: PaymentDetail }) {
  const { t, lang } = useI18n();
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">{t('webhooks')}</h2>
      {detail.webhooks.length === 0 ? (
        <p>{t('noWebhooks')}</p>
      ) : (
        <div class="pd-scroll" role="region" aria-labelledby="webhooks-title" tabIndex={0}>
          <table data-testid="webhooks">
            <thead>
              <tr>
                <th scope="col">{t('event')}</th>
                <th scope="col">{t('status')}</th>
                <th scope="col">{t('attempts')}</th>
                <th scope="col">{t('delivered')}</th>
                <th scope="col">{t('nextAttempt')}</th>
              </tr>
            </thead>
            <tbody>
              {detail.webhooks.map((w, i) => (
                <tr key={i}>
                  <td>{w.event}</td>
                  <td>{webhookStatusLabel(t, w.status)}</td>
                  <td>{w.attempts}</td>
                  <td>{w.deliveredAt ? formatDateTime(w.deliveredAt, lang) : ''}</td>
                  <td>{w.nextAttemptAt ? formatDateTime(w.nextAttemptAt, lang) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
