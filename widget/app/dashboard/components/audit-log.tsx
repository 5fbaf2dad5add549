/**
 * Audit log: who did what and when, from which address — the merchant's users' sign-ins, failures,
 * second factor, sign-outs and every change made from the dashboard (ListAuditEvents) — newest
 * first, a page at a time, filtered by action, user, outcome and days, and the same as a CSV
 * download. Read only: the log is append-only. The filters live in the address, as the payments'.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, auditExportUrl, filterQuery } from '../api.ts';
import { AUDIT_OUTCOMES, type AuditEvent, type AuditFilters, type AuditOutcome } from '../api-types.ts';
import { formatDateTime } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import type { MessageKey } from '../i18n/en.ts';
import { href } from '../route.ts';
import { useLoad } from '../use-load.ts';
import { Field, Select } from './field.tsx';
import { Pager, useCursorPages } from './pager.tsx';
import { ExportLink } from './export-link.tsx';
import { LoadFailed, Loading, Page } from './page.tsx';

/** The action filter's choices: prefixes of the recorded actions (docs/gateway-users.md "Audit"). */
const ACTIONS: readonly (readonly [prefix: string, label: MessageKey])[] = [
  ['user.', 'actionAccount'],
  ['user.login', 'actionLogin'],
  ['user.second_factor', 'actionSecondFactor'],
  ['user.logout', 'actionLogout'],
  ['operation.', 'actionOperation'],
  ['audit_log.read', 'actionAuditRead'],
];

const OUTCOME_LABEL: Record<AuditOutcome, MessageKey> = {
  Success: 'outcomeSuccess',
  Failure: 'outcomeFailure',
  Info: 'outcomeInfo',
};

function filtersOf(query: URLSearchParams): AuditFilters {
  const action = ACTIONS.find(([prefix]) => prefix === query.get('action'))?.[0] ?? '';
  const outcome = AUDIT_OUTCOMES.find((o) => o === query.get('outcome')) ?? '';
  return {
    action,
    user: query.get('user') ?? '',
    outcome,
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
  };
}

export function AuditLog({ query }: { query: URLSearchParams }) {
  const { t } = useI18n();
  const filters = filtersOf(query);
  const after = query.get('after') ?? undefined;
  const key = filterQuery(filters, after);
  const [loaded, reload] = useLoad(() => api.auditLog(filters, after), [key]);
  const { apply, pager } = useCursorPages('/audit-log', filters, after, 'audit-log-title');

  return (
    <Page title={t('auditLog')} testId="audit-log">
      <p>{t('auditIntro')}</p>
      <AuditFiltersForm filters={filters} onApply={apply} />
      <p>
        <ExportLink url={auditExportUrl(filters)} />
      </p>
      <p role="status" class="pd-muted" data-testid="audit-count">
        {loaded.state === 'ok'
          ? loaded.busy
            ? t('loading')
            : t('eventsShown', { n: loaded.data.events.length })
          : null}
      </p>
      {loaded.state === 'loading' ? <Loading /> : null}
      {loaded.state === 'failed' && loaded.status === 403 ? (
        // Staff and Viewers: the gateway answers the log to Owners and Admins only.
        <p role="alert" class="pd-alert">
          {t('auditNotAllowed')}
        </p>
      ) : loaded.state === 'failed' ? (
        <LoadFailed retry={() => void reload()} />
      ) : null}
      {loaded.state === 'ok' ? (
        <>
          {loaded.data.events.length === 0 ? (
            <p>{t('noEvents')}</p>
          ) : (
            <AuditTable events={loaded.data.events} busy={loaded.busy} />
          )}
          <Pager pager={pager} hasMore={loaded.data.hasMore} last={loaded.data.events.at(-1)?.id} />
        </>
      ) : null}
    </Page>
  );
}

function AuditFiltersForm({
  filters,
  onApply,
}: {
  filters: AuditFilters;
  onApply: (f: AuditFilters) => void;
}) {
  const { t } = useI18n();
  const [draft, setDraft] = useState(filters);
  const applied = filterQuery(filters);
  // The address changed (Clear filters, Back): the form shows what the list shows.
  useEffect(() => setDraft(filters), [applied]);
  const set = (name: keyof AuditFilters) => (value: string) => setDraft((d) => ({ ...d, [name]: value }));
  return (
    <form
      class="pd-filters"
      role="search"
      aria-label={t('filters')}
      onSubmit={(e) => {
        e.preventDefault();
        onApply(draft);
      }}
    >
      <fieldset>
        <legend>{t('filters')}</legend>
        <div class="pd-row">
          <Select
            id="audit-action"
            label={t('auditAction')}
            value={draft.action ?? ''}
            onChange={set('action')}
            options={[
              { value: '', label: t('anyAction') },
              ...ACTIONS.map(([prefix, label]) => ({ value: prefix, label: t(label) })),
            ]}
          />
          <Select
            id="audit-outcome"
            label={t('auditOutcome')}
            value={draft.outcome ?? ''}
            onChange={set('outcome')}
            options={[
              { value: '', label: t('anyOutcome') },
              ...AUDIT_OUTCOMES.map((o) => ({ value: o, label: t(OUTCOME_LABEL[o]) })),
            ]}
          />
        </div>
        <Field
          id="audit-user"
          label={t('auditUser')}
          hint={t('auditUserHint')}
          value={draft.user}
          autoComplete="off"
          onInput={(e) => set('user')(e.currentTarget.value)}
        />
        <div class="pd-row">
          <Field
            id="audit-from"
            type="date"
            label={t('dateFrom')}
            value={draft.from}
            onInput={(e) => set('from')(e.currentTarget.value)}
          />
          <Field
            id="audit-to"
            type="date"
            label={t('dateTo')}
            value={draft.to}
            onInput={(e) => set('to')(e.currentTarget.value)}
          />
        </div>
      </fieldset>
      <div class="pd-actions">
        <button type="submit" class="pd-button pd-primary">
          {t('showEvents')}
        </button>
        <a href={href('/audit-log')}>{t('clearFilters')}</a>
      </div>
    </form>
  );
}

function AuditTable({ events, busy }: { events: AuditEvent[]; busy: boolean }) {
  const { t, lang } = useI18n();
  return (
    <div class="pd-scroll" role="region" aria-labelledby="audit-caption" tabIndex={0}>
      <table data-testid="audit-table" aria-busy={busy ? 'true' : undefined}>
        <caption id="audit-caption">{t('auditTable')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('auditTime')}</th>
            <th scope="col">{t('auditUser')}</th>
            <th scope="col">{t('auditAction')}</th>
            <th scope="col">{t('auditOutcome')}</th>
            <th scope="col">{t('auditAddress')}</th>
            <th scope="col">{t('auditDetail')}</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.id} data-testid="audit-row">
              <td>{formatDateTime(e.at, lang)}</td>
              <td>{e.actor}</td>
              <td>
                <code>{e.action}</code>
              </td>
              <td>{t(OUTCOME_LABEL[e.outcome])}</td>
              <td>{e.origin ?? ''}</td>
              <td>
                {e.subject ? <p>{t('auditAbout', { user: e.subject })}</p> : null}
                {e.detail.length > 0 ? (
                  <dl class="pd-inline">
                    {e.detail.map((d) => (
                      <div key={d.name}>
                        <dt>{d.name}</dt>
                        <dd>{d.value}</dd>
                      </div>
                    ))}
                  </dl>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
