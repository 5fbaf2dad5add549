/**
 * Webhooks on the Developers page (issue 16; docs/dashboard.md "Developers"): the endpoint every
 * session without a webhook URL of its own is announced to, the signing secret (made or rolled by an
 * Owner, shown once), and the deliveries of every session, newest first, with one's request body and
 * the answer's first 1 KB, Resend, and Send test event. An Admin reads, resends and tests; the
 * endpoint and the secret are an Owner's; Staff and Viewers are told who may (the server refuses
 * them anyway).
 */
import { useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { WebhookDeliveryDetail, WebhookDeliveryRow, WebhookSettings } from '../api-types.ts';
import { formatDateTime } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import { webhookStatusLabel } from '../labels.ts';
import { useMayManageKeys, useMayReadWebhooks } from '../role.ts';
import { useLoad } from '../use-load.ts';
import { Field, focusFirstInvalid, focusSoon } from './field.tsx';
import { LoadFailed, Loading } from './page.tsx';
import { ShownOnce } from './shown-once.tsx';
import { Confirm } from './confirm.tsx';

export function WebhooksSection() {
  const { t } = useI18n();
  const mayRead = useMayReadWebhooks();
  return (
    <section class="pd-card" aria-labelledby="webhooks-section-title" data-testid="webhooks-section">
      <h2 id="webhooks-section-title">{t('whTitle')}</h2>
      <p>{t('whIntro')}</p>
      {mayRead ? <WebhooksBody /> : <p data-testid="webhooks-admin-only">{t('whAdminOnly')}</p>}
    </section>
  );
}

function WebhooksBody() {
  const { t, lang } = useI18n();
  const [loaded, reload] = useLoad(() => api.webhooks(), []);
  // Pages after the first, appended by Show more; cleared when the list is read again.
  const [more, setMore] = useState<{ rows: WebhookDeliveryRow[]; hasMore: boolean } | null>(null);
  const [open, setOpen] = useState<WebhookDeliveryDetail | null>(null);
  // A new secret, shown once: kept here, so that a failed read of the list after the roll keeps it.
  const [secret, setSecret] = useState<{ value: string; until: string | null } | null>(null);
  // Each read of the list starts a generation; a page of Show more asked for in an older one is
  // dropped. `paging` refuses a second Show more while one is on its way.
  const generation = useRef(0);
  const paging = useRef(false);
  const refresh = async () => {
    generation.current++;
    setMore(null);
    await reload();
  };
  const ok = loaded.state === 'ok' ? loaded : null;
  const rows = ok ? [...ok.data.deliveries, ...(more?.rows ?? [])] : [];
  const hasMore = ok ? (more ? more.hasMore : ok.data.hasMore) : false;
  // The notice keeps its place among the children whatever the list's state, so it is never made
  // again (which would take the focus back to it).
  return (
    <>
      {ok ? <Endpoint settings={ok.data.settings} onSaved={refresh} /> : null}
      {secret ? (
        <ShownOnce
          id="new-secret-value"
          testId="new-secret"
          heading={t('whNewSecretTitle')}
          headingLevel={3}
          warning={t('whNewSecretOnce')}
          label={t('whSecret')}
          value={secret.value}
          note={
            secret.until ? t('whPreviousSecretUntil', { at: formatDateTime(secret.until, lang) }) : undefined
          }
          copyLabel={t('whCopySecret')}
          copied={t('whSecretCopied')}
          copyFailed={t('whSecretCopyFailed')}
          onDone={() => {
            setSecret(null);
            focusSoon('#roll-secret');
          }}
        />
      ) : null}
      {ok ? (
        <Secret
          settings={ok.data.settings}
          onRolled={async (made) => {
            setSecret(made);
            await refresh();
          }}
        />
      ) : loaded.state === 'failed' ? (
        <LoadFailed retry={() => void refresh()} />
      ) : (
        <Loading />
      )}
      {ok ? (
        <Deliveries
          rows={rows}
          hasMore={hasMore}
          busy={ok.busy}
          endpointSet={ok.data.settings.endpointUrl !== null}
          onMore={async () => {
            const last = rows.at(-1);
            if (!last || paging.current) return;
            paging.current = true;
            const mine = generation.current;
            const res = await api.webhookDeliveries(last.id);
            paging.current = false;
            if (mine !== generation.current) return;
            if (res.ok)
              setMore((was) => ({
                rows: [...(was?.rows ?? []), ...res.data.deliveries],
                hasMore: res.data.hasMore,
              }));
            return res.ok;
          }}
          onOpen={(d) => {
            setOpen(d);
            focusSoon('#delivery-title');
          }}
          onSent={async (d) => {
            await refresh();
            setOpen(d);
            focusSoon('#delivery-title');
          }}
        />
      ) : null}
      {ok && open ? (
        <DeliveryDetail
          delivery={open}
          onResent={async (d) => {
            setOpen(d);
            await refresh();
          }}
          onClose={() => {
            const id = open.id;
            setOpen(null);
            focusSoon(`[data-delivery="${id}"]`);
          }}
        />
      ) : null}
    </>
  );
}

function Endpoint({ settings, onSaved }: { settings: WebhookSettings; onSaved: () => Promise<void> }) {
  const { t } = useI18n();
  const mayChange = useMayManageKeys();
  const [url, setUrl] = useState(settings.endpointUrl ?? '');
  const [error, setError] = useState<string | undefined>();
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!mayChange) {
    return (
      <div data-testid="webhook-endpoint">
        <h3>{t('whEndpoint')}</h3>
        <p class="pd-code">{settings.endpointUrl ?? t('whNoEndpoint')}</p>
        <p class="pd-muted">{t('whOwnerOnly')}</p>
      </div>
    );
  }
  const save = async (value: string, form: HTMLFormElement | null) => {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    setStatus(null);
    const res = await api.setWebhookEndpoint(value);
    setBusy(false);
    if (res.ok) {
      setUrl(res.data.settings.endpointUrl ?? '');
      setStatus(res.data.settings.endpointUrl ? t('whEndpointSaved') : t('whEndpointCleared'));
      await onSaved();
    } else if (res.kind === 'http' && res.error.fields?.length) {
      setError(t('whEndpointInvalid'));
      focusFirstInvalid(form);
    } else if (res.kind === 'http') {
      setStatus(t('actionRefused', { message: res.error.message }));
    } else {
      setStatus(t('outcomeUnknown'));
    }
  };
  return (
    <form
      data-testid="webhook-endpoint"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save(url, e.currentTarget);
      }}
    >
      <h3>{t('whEndpoint')}</h3>
      <Field
        id="webhook-endpoint-url"
        label={t('whEndpointUrl')}
        hint={t('whEndpointHint')}
        error={error}
        type="text"
        inputMode="url"
        autoComplete="off"
        spellcheck={false}
        value={url}
        onInput={(e) => setUrl(e.currentTarget.value)}
      />
      <div class="pd-actions">
        <button type="submit" class="pd-button pd-primary" aria-disabled={busy ? 'true' : undefined}>
          {t('whSaveEndpoint')}
        </button>
        {settings.endpointUrl ? (
          <button
            type="button"
            class="pd-button"
            aria-disabled={busy ? 'true' : undefined}
            onClick={() => void save('', null)}
          >
            {t('whRemoveEndpoint')}
          </button>
        ) : null}
      </div>
      <p role="status" class="pd-muted" data-testid="endpoint-status">
        {status}
      </p>
    </form>
  );
}

function Secret({
  settings,
  onRolled,
}: {
  settings: WebhookSettings;
  onRolled: (made: { value: string; until: string | null }) => Promise<void>;
}) {
  const { t, lang } = useI18n();
  const mayChange = useMayManageKeys();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const has = settings.secretCreatedAt !== null;

  const roll = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const res = await api.rollWebhookSecret();
    setBusy(false);
    if (res.ok) {
      setAsking(false);
      await onRolled({ value: res.data.secret, until: res.data.previousSecretValidUntil });
    } else if (res.kind === 'http') {
      setError(t('actionRefused', { message: res.error.message }));
    } else {
      setError(t('outcomeUnknown'));
    }
  };

  return (
    <div data-testid="webhook-secret">
      <h3 id="secret-title">{t('whSecret')}</h3>
      <p data-testid="secret-state">
        {has ? t('whSecretSince', { at: formatDateTime(settings.secretCreatedAt!, lang) }) : t('whNoSecret')}
      </p>
      {settings.previousSecretValidUntil ? (
        <p>{t('whPreviousSecretUntil', { at: formatDateTime(settings.previousSecretValidUntil, lang) })}</p>
      ) : null}
      <p role="alert" class={error ? 'pd-alert' : 'pd-empty'}>
        {error}
      </p>
      {!mayChange ? (
        <p class="pd-muted">{t('whOwnerOnly')}</p>
      ) : asking ? (
        <Confirm
          question={t('whRollQuestion')}
          confirmId="confirm-roll-secret"
          confirm={t('whConfirmRoll')}
          onConfirm={roll}
          onDismiss={() => {
            setAsking(false);
            focusSoon('#roll-secret');
          }}
        />
      ) : (
        <button
          type="button"
          id="roll-secret"
          class="pd-button"
          onClick={() => {
            setError(null);
            if (has) {
              setAsking(true);
              focusSoon('#confirm-roll-secret');
            } else {
              void roll();
            }
          }}
        >
          {has ? t('whRollSecret') : t('whCreateSecret')}
        </button>
      )}
    </div>
  );
}

function statusCodeText(t: ReturnType<typeof useI18n>['t'], d: WebhookDeliveryRow): string {
  if (d.statusCode !== null) return String(d.statusCode);
  return d.lastAttemptAt ? t('whNoAnswer') : '';
}

function Deliveries({
  rows,
  hasMore,
  busy,
  endpointSet,
  onMore,
  onOpen,
  onSent,
}: {
  rows: WebhookDeliveryRow[];
  hasMore: boolean;
  busy: boolean;
  endpointSet: boolean;
  onMore: () => Promise<boolean | undefined>;
  onOpen: (d: WebhookDeliveryDetail) => void;
  onSent: (d: WebhookDeliveryDetail) => Promise<void>;
}) {
  const { t, lang } = useI18n();
  const [sending, setSending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  const sendTest = async () => {
    if (sending) return;
    setSending(true);
    setError(null);
    setMessage(null);
    const res = await api.sendTestWebhook();
    setSending(false);
    if (res.ok) {
      setMessage(t('whTestSent', { status: statusCodeText(t, res.data.delivery) || t('whNoAnswer') }));
      await onSent(res.data.delivery);
    } else if (res.kind === 'http') {
      setError(t('actionRefused', { message: res.error.message }));
    } else {
      setError(t('outcomeUnknown'));
    }
  };

  // Only the latest Details asked for is opened: an older answer arriving after it is dropped.
  const latest = useRef(0);
  const open = async (id: string) => {
    setError(null);
    const mine = ++latest.current;
    const res = await api.webhookDelivery(id);
    if (mine !== latest.current) return;
    if (res.ok) onOpen(res.data.delivery);
    else setError(t('loadFailed'));
  };

  return (
    <div data-testid="webhook-deliveries">
      <h3 id="deliveries-title">{t('whDeliveries')}</h3>
      <div class="pd-actions">
        <button
          type="button"
          id="send-test-event"
          class="pd-button"
          aria-disabled={sending || !endpointSet ? 'true' : undefined}
          aria-describedby={endpointSet ? undefined : 'send-test-hint'}
          onClick={() => {
            if (!endpointSet) return;
            void sendTest();
          }}
        >
          {t('whSendTest')}
        </button>
      </div>
      {endpointSet ? null : (
        <p id="send-test-hint" class="pd-muted">
          {t('whSetEndpointFirst')}
        </p>
      )}
      <p role="status" class="pd-muted" data-testid="test-status">
        {message}
      </p>
      <p role="alert" class={error ? 'pd-alert' : 'pd-empty'}>
        {error}
      </p>
      {rows.length === 0 ? (
        <p>{t('noWebhooks')}</p>
      ) : (
        <div class="pd-scroll" role="region" aria-labelledby="deliveries-caption" tabIndex={0}>
          <table data-testid="deliveries-table" aria-busy={busy ? 'true' : undefined}>
            <caption id="deliveries-caption">{t('whDeliveriesCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('whTime')}</th>
                <th scope="col">{t('event')}</th>
                <th scope="col">{t('status')}</th>
                <th scope="col">{t('whStatusCode')}</th>
                <th scope="col">{t('whDuration')}</th>
                <th scope="col">{t('attempts')}</th>
                <th scope="col">{t('whNextRetry')}</th>
                <th scope="col">{t('whDetails')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id} data-testid="delivery-row">
                  <td>{formatDateTime(d.createdAt, lang)}</td>
                  <td>
                    <code>{d.event}</code>
                  </td>
                  <td>{webhookStatusLabel(t, d.status)}</td>
                  <td data-testid="delivery-code">{statusCodeText(t, d)}</td>
                  <td>{d.durationMs !== null ? t('whMs', { ms: String(d.durationMs) }) : ''}</td>
                  <td>{d.attempts}</td>
                  <td>{d.nextAttemptAt ? formatDateTime(d.nextAttemptAt, lang) : ''}</td>
                  <td>
                    <button
                      type="button"
                      class="pd-button"
                      data-delivery={d.id}
                      aria-label={t('whDetailsOf', { event: d.event, at: formatDateTime(d.createdAt, lang) })}
                      onClick={() => void open(d.id)}
                    >
                      {t('whDetails')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {hasMore ? (
        <div class="pd-pager">
          <button
            type="button"
            class="pd-button"
            aria-disabled={loadingMore ? 'true' : undefined}
            onClick={async () => {
              if (loadingMore) return;
              setLoadingMore(true);
              const ok = await onMore();
              setLoadingMore(false);
              if (ok === false) setError(t('loadFailed'));
            }}
          >
            {t('whShowMore')}
          </button>
        </div>
      ) : null}
    </div>
  );
}

function DeliveryDetail({
  delivery: d,
  onResent,
  onClose,
}: {
  delivery: WebhookDeliveryDetail;
  onResent: (d: WebhookDeliveryDetail) => Promise<void>;
  onClose: () => void;
}) {
  const { t, lang } = useI18n();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const resend = async () => {
    if (busy) return;
    setBusy(true);
    setStatus(null);
    const res = await api.resendWebhook(d.id);
    setBusy(false);
    if (res.ok) {
      setStatus(t('whResent', { status: statusCodeText(t, res.data.delivery) || t('whNoAnswer') }));
      await onResent(res.data.delivery);
    } else if (res.kind === 'http') {
      setStatus(t('actionRefused', { message: res.error.message }));
    } else {
      setStatus(t('outcomeUnknown'));
    }
  };
  return (
    <div class="pd-card" data-testid="delivery-detail" role="region" aria-labelledby="delivery-title">
      <h3 id="delivery-title" tabIndex={-1}>
        {t('whDeliveryTitle', { event: d.event })}
      </h3>
      <dl class="pd-figures">
        <div>
          <dt>{t('whEventId')}</dt>
          <dd class="pd-code" data-testid="delivery-id">
            {d.id}
          </dd>
        </div>
        <div>
          <dt>{t('status')}</dt>
          <dd>{webhookStatusLabel(t, d.status)}</dd>
        </div>
        <div>
          <dt>{t('whStatusCode')}</dt>
          <dd data-testid="detail-code">{statusCodeText(t, d)}</dd>
        </div>
        <div>
          <dt>{t('whDuration')}</dt>
          <dd>{d.durationMs !== null ? t('whMs', { ms: String(d.durationMs) }) : ''}</dd>
        </div>
        <div>
          <dt>{t('attempts')}</dt>
          <dd data-testid="detail-attempts">{d.attempts}</dd>
        </div>
        <div>
          <dt>{t('whNextRetry')}</dt>
          <dd>{d.nextAttemptAt ? formatDateTime(d.nextAttemptAt, lang) : ''}</dd>
        </div>
        <div>
          <dt>{t('whSentTo')}</dt>
          <dd class="pd-code">{d.url}</dd>
        </div>
        {d.error ? (
          <div>
            <dt>{t('whProblem')}</dt>
            <dd>{d.error}</dd>
          </div>
        ) : null}
      </dl>
      <h4 id="request-body-title">{t('whRequestBody')}</h4>
      <pre
        class="pd-pre"
        role="region"
        aria-labelledby="request-body-title"
        tabIndex={0}
        data-testid="request-body"
      >
        <code>{d.body}</code>
      </pre>
      <h4 id="response-head-title">{t('whResponseHead')}</h4>
      {d.responseHead ? (
        <pre
          class="pd-pre"
          role="region"
          aria-labelledby="response-head-title"
          tabIndex={0}
          data-testid="response-head"
        >
          <code>{d.responseHead}</code>
        </pre>
      ) : (
        <p>{t('whNoResponseBody')}</p>
      )}
      <div class="pd-actions">
        <button
          type="button"
          id="resend-delivery"
          class="pd-button pd-primary"
          aria-disabled={busy ? 'true' : undefined}
          onClick={() => void resend()}
        >
          {t('whResend')}
        </button>
        <button type="button" class="pd-button" onClick={onClose}>
          {t('whClose')}
        </button>
      </div>
      <p role="status" class="pd-muted" data-testid="resend-status">
        {status}
      </p>
    </div>
  );
}
