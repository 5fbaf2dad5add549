/**
 * 3-D Secure (docs/3ds-sandbox.md): the bank's challenge in a frame of this page, and its result
 * polled about once a second until the shopper has answered.
 */
import { useEffect, useRef } from 'preact/hooks';
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

export function Challenge({ challengeUrl, resultUrl, onDone, onCancel }: Props) {
  const { t } = useI18n();
  const heading = useRef<HTMLHeadingElement>(null);
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

  return (
    <section class="pf-challenge" aria-labelledby="tds-title">
      <h2 id="tds-title" tabIndex={-1} ref={heading}>
        {t('tdsTitle')}
      </h2>
      <p>{t('tdsBody')}</p>
      <iframe src={challengeUrl} title={t('tdsFrame')} class="pf-tds-frame" />
      <button type="button" class="pf-link" onClick={onCancel}>
        {t('tdsCancel')}
      </button>
    </section>
  );
}
