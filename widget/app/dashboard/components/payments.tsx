/**
 * Payments: the filters (status, method, dates, a search), newest first, a page at a time, and the
 * same filters as a CSV download. The filters live in the address, so a filtered list can be
 * bookmarked and Back returns to it; the page before is remembered as the cursor it started after.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, exportUrl, filterQuery } from '../api.ts';
import { METHODS, type Payment, type PaymentFilters, STATE_FILTERS } from '../api-types.ts';
import { formatDateTime, formatMoney } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import { methodLabel, methodName, stateLabel } from '../labels.ts';
import { href } from '../route.ts';
import { useLoad } from '../use-load.ts';
import { Field, Select } from './field.tsx';
import { Pager, useCursorPages } from './pager.tsx';
import { ExportLink } from './export-link.tsx';
import { LoadFailed, Loading, Page } from './page.tsx';

function filtersOf(query: URLSearchParams): PaymentFilters {
  const state = STATE_FILTERS.find((s) => s === query.get('state')) ?? '';
  const method = METHODS.find((m) => m === query.get('method')) ?? '';
  return { state, method, from: query.get('from') ?? '', to: query.get('to') ?? '', q: query.get('q') ?? '' };
}

export function Payments({ query }: { query: URLSearchParams }) {
  const { t } = useI18n();
  const filters = filtersOf(query);
  const after = query.get('after') ?? undefined;
  const key = filterQuery(filters, after);
  const [loaded, reload] = useLoad(() => api.payments(filters, after), [key]);
  const { apply, pager } = useCursorPages('/payments', filters, after, 'payments-title');

  return (
    <Page title={t('payments')} testId="payments">
      <PaymentFiltersForm filters={filters} onApply={apply} />
      <p>
        <ExportLink url={exportUrl(filters)} />
      </p>
      <p role="status" class="pd-muted" data-testid="payments-count">
        {loaded.state === 'ok'
          ? loaded.busy
            ? t('loading')
            : t('paymentsShown', { n: loaded.data.payments.length })
          : null}
      </p>
      {loaded.state === 'loading' ? <Loading /> : null}
      {loaded.state === 'failed' ? <LoadFailed retry={() => void reload()} /> : null}
      {loaded.state === 'ok' ? (
        <>
          {loaded.data.payments.length === 0 ? (
            <p>{t('noPayments')}</p>
          ) : (
            <PaymentList payments={loaded.data.payments} busy={loaded.busy} />
          )}
          <Pager pager={pager} hasMore={loaded.data.hasMore} last={loaded.data.payments.at(-1)?.id} />
        </>
      ) : null}
    </Page>
  );
}

function PaymentFiltersForm({
  filters,
  onApply,
}: {
  filters: PaymentFilters;
  onApply: (f: PaymentFilters) => void;
}) {
  const { t } = useI18n();
  const [draft, setDraft] = useState(filters);
  const applied = filterQuery(filters);
  // The address changed (Clear filters, Back): the form shows what the list shows.
  useEffect(() => setDraft(filters), [applied]);
  const set = (name: keyof PaymentFilters) => (value: string) => setDraft((d) => ({ ...d, [name]: value }));
  return (
    <form
      class="pd-filters"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(draft);
      }}
    >
      <Field
        id="search"
        type="search"
        label={t('searchPayments')}
        hint={t('searchHint')}
        value={draft.q}
        onInput={(e) => set('q')(e.currentTarget.value)}
      />
      <fieldset>
        <legend>{t('filters')}</legend>
        <div class="pd-row">
          <Select
            id="filter-state"
            label={t('status')}
            value={draft.state ?? ''}
            onChange={set('state')}
            options={[
              { value: '', label: t('anyStatus') },
              ...STATE_FILTERS.map((s) => ({ value: s, label: stateLabel(t, s) })),
            ]}
          />
          <Select
            id="filter-method"
            label={t('method')}
            value={draft.method ?? ''}
            onChange={set('method')}
            options={[
              { value: '', label: t('anyMethod') },
              ...METHODS.map((m) => ({ value: m, label: methodName(t, m) })),
            ]}
          />
        </div>
        <div class="pd-row">
          <Field
            id="filter-from"
            type="date"
            label={t('dateFrom')}
            value={draft.from}
            onInput={(e) => set('from')(e.currentTarget.value)}
          />
          <Field
            id="filter-to"
            type="date"
            label={t('dateTo')}
            value={draft.to}
            onInput={(e) => set('to')(e.currentTarget.value)}
          />
        </div>
      </fieldset>
      <div class="pd-actions">
        <button type="submit" class="pd-button pd-primary">
          {t('applyFilters')}
        </button>
        <a href={href('/payments')}>{t('clearFilters')}</a>
      </div>
    </form>
  );
}

function PaymentList({ payments, busy }: { payments: Payment[]; busy: boolean }) {
  const { t, lang } = useI18n();
  return (
    <ul class="pd-list" data-testid="payment-list" aria-busy={busy ? 'true' : undefined}>
      {payments.map((p) => (
        <li key={p.id} class="pd-item" data-testid="payment-row">
          <div class="pd-item-head">
            <a href={href(`/payments/${encodeURIComponent(p.id)}`)}>{t('paymentTitle', { id: p.id })}</a>
            <span class="pd-amount">{formatMoney(p.amount, p.currency, lang)}</span>
            <span class={`pd-badge pd-state-${p.state}`}>{stateLabel(t, p.state)}</span>
          </div>
          <dl class="pd-inline">
            {p.orderNumber ? (
              <div>
                <dt>{t('orderNumber')}</dt>
                <dd>{p.orderNumber}</dd>
              </div>
            ) : null}
            <div>
              <dt>{t('method')}</dt>
              <dd>{methodLabel(t, p)}</dd>
            </div>
            {p.customerName || p.customerEmail ? (
              <div>
                <dt>{t('customer')}</dt>
                <dd>{p.customerName ?? p.customerEmail}</dd>
              </div>
            ) : null}
            <div>
              <dt>{t('created')}</dt>
              <dd>{formatDateTime(p.createdAt, lang)}</dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}
