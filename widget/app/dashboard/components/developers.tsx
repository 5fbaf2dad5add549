/**
 * Developers (issue 16; docs/dashboard.md "Developers"): the merchant id, the TransactionKey's
 * status (each key's last use and the overlap's end, never a key) with Roll key for an Owner, the
 * new key shown once after a roll, and code snippets filled with the merchant's id and this
 * server's address (the key only as a placeholder). The webhooks part has its own component.
 */
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { KeyOverlap } from '../api-types.ts';
import { formatDateTime } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import type { MessageKey } from '../i18n/en.ts';
import { useMayManageKeys } from '../role.ts';
import { useLoad } from '../use-load.ts';
import { focusSoon } from './field.tsx';
import { LoadFailed, Loading, Page } from './page.tsx';
import { ShownOnce, useCopy } from './shown-once.tsx';
import { Confirm } from './confirm.tsx';
import { WebhooksSection } from './webhooks-section.tsx';

const OVERLAPS: readonly { value: KeyOverlap; label: MessageKey }[] = [
  { value: 'None', label: 'overlapNone' },
  { value: 'OneHour', label: 'overlapOneHour' },
  { value: 'TwentyFourHours', label: 'overlapTwentyFourHours' },
];

export function Developers() {
  const { t } = useI18n();
  const mayManageKeys = useMayManageKeys();
  const [loaded, reload] = useLoad(() => api.developers(), []);
  return (
    <Page title={t('developers')} testId="developers">
      {loaded.state === 'loading' ? <Loading /> : null}
      {loaded.state === 'failed' ? <LoadFailed retry={() => void reload()} /> : null}
      {loaded.state === 'ok' ? (
        <>
          <section class="pd-card" aria-labelledby="account-title">
            <h2 id="account-title">{t('yourAccount')}</h2>
            <dl class="pd-figures">
              <div>
                <dt>{t('merchantId')}</dt>
                <dd class="pd-code" data-testid="merchant-id">
                  {loaded.data.merchantId}
                </dd>
              </div>
            </dl>
          </section>
          {mayManageKeys ? <KeySection /> : <p data-testid="key-owner-only">{t('keyOwnerOnly')}</p>}
          <WebhooksSection />
          <section aria-labelledby="snippets-title" data-testid="snippets">
            <h2 id="snippets-title">{t('codeSnippets')}</h2>
            <p>{t('snippetsIntro')}</p>
            <Snippet id="snippet-rest" title={t('snippetRest')} code={loaded.data.snippets.rest} />
            <Snippet id="snippet-embed" title={t('snippetEmbed')} code={loaded.data.snippets.embed} />
            <Snippet
              id="snippet-redirect"
              title={t('snippetRedirect')}
              code={loaded.data.snippets.redirect}
            />
          </section>
        </>
      ) : null}
    </Page>
  );
}

function Snippet({ id, title, code }: { id: string; title: string; code: string }) {
  const { t } = useI18n();
  const { message, copy } = useCopy();
  return (
    <div class="pd-snippet" data-testid={id}>
      <h3 id={`${id}-title`}>{title}</h3>
      <pre class="pd-pre" role="region" aria-labelledby={`${id}-title`} tabIndex={0}>
        <code>{code}</code>
      </pre>
      <div class="pd-actions">
        <button
          type="button"
          class="pd-button"
          aria-describedby={`${id}-title`}
          onClick={() => void copy(code, t('snippetCopied'), t('snippetCopyFailed'))}
        >
          {t('copyCode')}
        </button>
      </div>
      <p role="status" class="pd-muted">
        {message}
      </p>
    </div>
  );
}

function KeySection() {
  const { t, lang } = useI18n();
  const [status, reload] = useLoad(() => api.keyStatus(), []);
  const [asking, setAsking] = useState(false);
  const [overlap, setOverlap] = useState<KeyOverlap>('OneHour');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [newKey, setNewKey] = useState<{ key: string; until: string | null } | null>(null);
  const when = (iso: string | null) => (iso ? formatDateTime(iso, lang) : t('keyNeverUsed'));

  const roll = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const res = await api.rollKey(overlap);
    setBusy(false);
    if (res.ok === false && res.status === 401) return;
    if (res.ok) {
      setAsking(false);
      setNewKey({ key: res.data.transactionKey, until: res.data.previousValidUntil });
      await reload();
    } else if (res.kind === 'http') {
      setError(t('actionRefused', { message: res.error.message }));
    } else {
      setError(t('outcomeUnknown'));
      // The key may have changed: the status read again says whether it did.
      void reload();
    }
  };

  return (
    <section class="pd-card" aria-labelledby="key-title" data-testid="transaction-key">
      <h2 id="key-title">{t('transactionKey')}</h2>
      <p>{t('keyShownOnce')}</p>
      {newKey ? (
        <ShownOnce
          id="new-key-value"
          testId="new-key"
          heading={t('newKeyTitle')}
          headingLevel={3}
          warning={t('newKeyOnce')}
          label={t('transactionKey')}
          value={newKey.key}
          note={
            newKey.until
              ? t('previousKeyUntil', { at: formatDateTime(newKey.until, lang) })
              : t('previousKeyStopped')
          }
          copyLabel={t('copyKey')}
          copied={t('keyCopied')}
          copyFailed={t('keyCopyFailed')}
          onDone={() => {
            setNewKey(null);
            focusSoon('#roll-key');
          }}
        />
      ) : null}
      {status.state === 'loading' ? <Loading /> : null}
      {status.state === 'failed' ? <LoadFailed retry={() => void reload()} /> : null}
      {status.state === 'ok' ? (
        <dl class="pd-facts" data-testid="key-status">
          <div>
            <dt>{t('keyLastUsed')}</dt>
            <dd data-testid="key-last-used">{when(status.data.lastUsedAt)}</dd>
          </div>
          {status.data.previousValidUntil ? (
            <>
              <div>
                <dt>{t('previousKeyWorksUntil')}</dt>
                <dd data-testid="previous-until">{formatDateTime(status.data.previousValidUntil, lang)}</dd>
              </div>
              <div>
                <dt>{t('previousKeyLastUsed')}</dt>
                <dd data-testid="previous-last-used">{when(status.data.previousLastUsedAt)}</dd>
              </div>
            </>
          ) : null}
        </dl>
      ) : null}
      <p role="alert" class={error ? 'pd-alert' : 'pd-empty'} data-testid="roll-error">
        {error}
      </p>
      {asking ? (
        <Confirm
          question={t('rollQuestion')}
          confirmId="confirm-roll"
          confirm={t('confirmRoll')}
          onConfirm={roll}
          onDismiss={() => {
            setAsking(false);
            focusSoon('#roll-key');
          }}
        >
          <fieldset>
            <legend>{t('overlapLegend')}</legend>
            {OVERLAPS.map((o) => (
              <div class="pd-check" key={o.value}>
                <input
                  type="radio"
                  id={`overlap-${o.value}`}
                  name="overlap"
                  value={o.value}
                  checked={overlap === o.value}
                  onChange={() => setOverlap(o.value)}
                />
                <label for={`overlap-${o.value}`}>{t(o.label)}</label>
              </div>
            ))}
          </fieldset>
        </Confirm>
      ) : (
        <button
          type="button"
          id="roll-key"
          class="pd-button"
          onClick={() => {
            setError(null);
            setAsking(true);
            focusSoon('#overlap-OneHour');
          }}
        >
          {t('rollKey')}
        </button>
      )}
    </section>
  );
}
