/**
 * 3-D Secure (docs/3ds-sandbox.md): the bank's challenge in a frame of this page, and its result
 * polled about once a second until the shopper has answered. The frame takes the height of the
 * bank's page as the page tells it (a `{source: 'payframe-3ds', height}` message from the frame,
 * from the challenge's own origin), so no empty band is left under it; a bank that says nothing
 * keeps the default height. Below 480 px it takes the whole viewport as a modal <dialog> in the top
 * layer, its frame filling what the heading leaves, so the bank's buttons are in view without
 * scrolling inside a nested frame.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { type ChallengeResult, challengeResult } from '../api.ts';
import { useI18n } from '../i18n/context.ts';

/** The sandbox bank's challenges last 10 minutes (docs/3ds-sandbox.md); a little more for clocks. */
const CHALLENGE_MS = 11 * 60 * 1000;

interface Props {
  challengeUrl: string;
  resultUrl: string;
  onDone: (result: ChallengeResult) => void;
  onCancel: () => void;
}

const NARROW = '(max-width: 479.98px)';

/** The bank's page in the form's language (`?lang=`: the shopper may have picked another than the session's). */
function inLanguage(challengeUrl: string, lang: string): string {
  try {
    const url = new URL(challengeUrl, location.href);
    url.searchParams.set('lang', lang);
    return url.href;
  } catch {
    return challengeUrl;
  }
}

/** The bank's page height as its frame reports it, for the frame's own height (null: not told). */
function useFrameHeight(frame: { current: HTMLIFrameElement | null }, challengeUrl: string): number | null {
  const [height, setHeight] = useState<number | null>(null);
  useEffect(() => {
    let origin = '';
    try {
      origin = new URL(challengeUrl, location.href).origin;
    } catch {
      return;
    }
    const heard = (e: MessageEvent) => {
      const d = e.data as { source?: unknown; height?: unknown } | null;
      if (e.origin !== origin || e.source !== frame.current?.contentWindow || d?.source !== 'payframe-3ds')
        return;
      if (typeof d.height === 'number' && Number.isFinite(d.height) && d.height > 0)
        setHeight(Math.min(Math.ceil(d.height), 2000));
    };
    window.addEventListener('message', heard);
    return () => window.removeEventListener('message', heard);
  }, [challengeUrl]);
  return height;
}

export function Challenge({ challengeUrl, resultUrl, onDone, onCancel }: Props) {
  const { t, lang } = useI18n();
  const heading = useRef<HTMLHeadingElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const told = useFrameHeight(frame, challengeUrl);
  const [narrow] = useState(() => typeof matchMedia === 'function' && matchMedia(NARROW).matches);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  useEffect(() => {
    heading.current?.focus();
    let stopped = false;
    let timer = 0;
    let failures = 0;
    const started = Date.now();
    const expired = { status: 'expired', cavv: null, eci: null, xid: null, dsTransactionId: null } as const;
    const poll = async () => {
      const res = await challengeResult(resultUrl);
      if (stopped) return;
      if (res.ok && res.data.status !== 'pending') return onDone(res.data);
      // A 404/410 means the challenge is gone; past its 10 minutes it cannot succeed either:
      // report it as expired rather than poll forever.
      if ((!res.ok && (res.status === 404 || res.status === 410)) || Date.now() - started > CHALLENGE_MS)
        return onDone(expired);
      // Once a second while the server answers; slower, up to 10 s, while it does not.
      failures = res.ok ? 0 : failures + 1;
      timer = window.setTimeout(() => void poll(), Math.min(1000 * 2 ** failures, 10_000));
    };
    timer = window.setTimeout(() => void poll(), 1000);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [resultUrl]);

  const content = (
    <>
      <h2 id="tds-title" tabIndex={-1} ref={heading}>
        {t('tdsTitle')}
      </h2>
      <p>{t('tdsBody')}</p>
      <iframe
        ref={frame}
        src={inLanguage(challengeUrl, lang)}
        title={t('tdsFrame')}
        class="pf-tds-frame"
        // The bank's page height, plus the frame's own border (the dialog's frame fills instead).
        style={told && !narrow ? { height: `${told + 2}px` } : undefined}
      />
      <button type="button" class="pf-link" onClick={onCancel}>
        {t('tdsCancel')}
      </button>
    </>
  );
  if (narrow) {
    return (
      <dialog
        ref={dialog}
        class="pf-challenge pf-challenge-full"
        aria-labelledby="tds-title"
        // Esc does not walk away from the bank's check (as on wider screens): "Cancel verification" does.
        onCancel={(e) => e.preventDefault()}
      >
        {content}
      </dialog>
    );
  }
  return (
    <section class="pf-challenge" aria-labelledby="tds-title">
      {content}
    </section>
  );
}
