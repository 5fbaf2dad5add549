/**
 * Payment links: a checkout session that lives longer (up to 30 days), made here and sent to a
 * customer. "New payment link" opens the form; the link made is shown with its URL to copy and its
 * QR code; the list shows each link's status, and an open one can be canceled (asked first).
 */
import { useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { PaymentLink } from '../api-types.ts';
import { formatDateTime, formatMoney } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import { linkStatusLabel } from '../labels.ts';
import { useMayActOnPayments } from '../role.ts';
import { useLoad } from '../use-load.ts';
import { focusSoon } from './field.tsx';
import { LinkForm } from './link-form.tsx';
import { LoadFailed, Loading, Page } from './page.tsx';
import { Confirm } from './confirm.tsx';
import { svgImage } from './second-factor.tsx';

export function PaymentLinks() {
  const { t } = useI18n();
  const mayAct = useMayActOnPayments();
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<{ link: PaymentLink; qrSvg: string } | null>(null);
  const [more, setMore] = useState<PaymentLink[]>([]);
  const [loaded, reload] = useLoad(() => api.links(), []);
  const [cursor, setCursor] = useState<{ hasMore: boolean } | null>(null);
  // One "Show more" at a time; a page read before the list was read again is dropped, not appended.
  const [moreBusy, setMoreBusy] = useState(false);
  const [moreFailed, setMoreFailed] = useState(false);
  const generation = useRef(0);

  const reloadAll = async () => {
    generation.current++;
    setMore([]);
    setCursor(null);
    setMoreBusy(false);
    setMoreFailed(false);
    await reload();
  };
  const showMore = async (after: string) => {
    if (moreBusy) return;
    const mine = generation.current;
    setMoreBusy(true);
    setMoreFailed(false);
    const res = await api.links(after);
    if (mine !== generation.current) return;
    setMoreBusy(false);
    if (res.ok) {
      setMore((m) => [...m, ...res.data.links]);
      setCursor({ hasMore: res.data.hasMore });
    } else if (res.status !== 401) setMoreFailed(true);
  };

  const links = loaded.state === 'ok' ? [...loaded.data.links, ...more] : [];
  const hasMore = cursor ? cursor.hasMore : loaded.state === 'ok' && loaded.data.hasMore;

  return (
    <Page title={t('paymentLinks')} testId="payment-links">
      {mayAct ? (
        <button
          type="button"
          class="pd-button pd-primary"
          aria-expanded={open ? 'true' : 'false'}
          aria-controls="new-link"
          onClick={() => {
            setOpen(!open);
            if (!open) focusSoon('#link-amount');
          }}
        >
          {t('newLink')}
        </button>
      ) : null}
      <div id="new-link">
        {open ? (
          <LinkForm
            onCreated={(answer) => {
              setOpen(false);
              setCreated(answer);
              focusSoon('#created-title');
              void reloadAll();
            }}
          />
        ) : null}
      </div>
      {created ? <CreatedLink link={created.link} qrSvg={created.qrSvg} /> : null}
      {loaded.state === 'loading' ? <Loading /> : null}
      {loaded.state === 'failed' ? <LoadFailed retry={() => void reload()} /> : null}
      {loaded.state === 'ok' ? <LinkList links={links} onChanged={reloadAll} /> : null}
      <p role="alert" class={moreFailed ? 'pd-alert' : 'pd-empty'}>
        {moreFailed ? t('loadFailed') : null}
      </p>
      {hasMore && links.length > 0 ? (
        <button
          type="button"
          class="pd-button"
          aria-disabled={moreBusy ? 'true' : undefined}
          onClick={() => void showMore(links.at(-1)!.token)}
        >
          {moreBusy ? t('loading') : t('showMore')}
        </button>
      ) : null}
    </Page>
  );
}

/** The link just made: its URL in a read-only field to copy (with a button), and its QR code. */
function CreatedLink({ link, qrSvg }: { link: PaymentLink; qrSvg: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(t('copied'));
    } catch {
      setCopied(t('copyFailed'));
      focusSoon('#link-url');
    }
  };
  return (
    <section class="pd-card" aria-labelledby="created-title" data-testid="created-link">
      <h2 id="created-title" tabIndex={-1}>
        {t('linkCreated')}
      </h2>
      {link.email ? <p>{t('linkSent', { email: link.email })}</p> : null}
      <div class="pd-field">
        <label for="link-url">{t('linkUrl')}</label>
        <input id="link-url" type="url" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
      </div>
      <div class="pd-actions">
        <button type="button" class="pd-button" onClick={() => void copy()}>
          {t('copyLink')}
        </button>
      </div>
      <p role="status" class="pd-muted">
        {copied}
      </p>
      <img class="pd-qr" src={svgImage(qrSvg)} alt={t('linkQrAlt')} width={200} height={200} />
    </section>
  );
}

function LinkList({ links, onChanged }: { links: PaymentLink[]; onChanged: () => Promise<void> }) {
  const { t, lang } = useI18n();
  const mayAct = useMayActOnPayments();
  const [asking, setAsking] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);

  const cancel = async (link: PaymentLink) => {
    const res = await api.cancelLink(link.token);
    if (res.ok === false && res.status === 401) return;
    setAsking(null);
    setResult(
      res.ok
        ? t('linkCanceledDone', { order: link.orderNumber ?? link.token })
        : res.kind === 'http'
          ? t('actionRefused', { message: res.error.message })
          : t('outcomeUnknown'),
    );
    await onChanged();
    focusSoon('#payment-links-title');
  };

  return (
    <>
      <p role="status" class={result ? 'pd-notice' : 'pd-empty'} data-testid="link-result">
        {result}
      </p>
      {links.length === 0 ? (
        <p>{t('noLinks')}</p>
      ) : (
        <ul class="pd-list" data-testid="link-list">
          {links.map((link) => (
            <li key={link.token} class="pd-item" data-testid="link-row">
              <div class="pd-item-head">
                <span class="pd-strong">{link.orderNumber ?? link.token}</span>
                <span class="pd-amount">{formatMoney(link.amount, link.currency, lang)}</span>
                <span class={`pd-badge pd-link-${link.status}`} data-testid="link-status">
                  {linkStatusLabel(t, link.status)}
                </span>
              </div>
              <dl class="pd-inline">
                {link.email ? (
                  <div>
                    <dt>{t('customerEmail')}</dt>
                    <dd>{link.email}</dd>
                  </div>
                ) : null}
                <div>
                  <dt>{t('created')}</dt>
                  <dd>{formatDateTime(link.createdAt, lang)}</dd>
                </div>
                <div>
                  <dt>{t('expires')}</dt>
                  <dd>{formatDateTime(link.expiresAt, lang)}</dd>
                </div>
              </dl>
              <p class="pd-url" translate={false}>
                {link.url}
              </p>
              {mayAct && link.status === 'Open' && asking !== link.token ? (
                <button
                  type="button"
                  id={`cancel-${link.token}`}
                  class="pd-button"
                  aria-label={t('cancelLinkFor', { order: link.orderNumber ?? link.token })}
                  onClick={() => {
                    setResult(null);
                    setAsking(link.token);
                    focusSoon(`#confirm-cancel-${link.token}`);
                  }}
                >
                  {t('cancel')}
                </button>
              ) : null}
              {asking === link.token ? (
                <Confirm
                  question={t('cancelLinkQuestion', { order: link.orderNumber ?? link.token })}
                  confirmId={`confirm-cancel-${link.token}`}
                  confirm={t('confirmCancelLink')}
                  onConfirm={() => cancel(link)}
                  onDismiss={() => {
                    setAsking(null);
                    focusSoon(`#cancel-${link.token}`);
                  }}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
