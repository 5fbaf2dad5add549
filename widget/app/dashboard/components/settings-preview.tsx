/**
 * The Settings page's live preview (docs/dashboard.md "Settings"): the real page app at
 * `/pay/preview` (a sample session that cannot be paid), framed from this origin only. The draft
 * reaches it by postMessage to this origin as it is typed (../../pay/preview.ts checks every value
 * again).
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { PREVIEW_MESSAGE, PREVIEW_READY, type PreviewDraft } from '../../pay/preview.ts';
import { useI18n } from '../i18n/context.ts';

/**
 * `draft` is posted again whenever it is a new object: the form gives it memoised on its own draft,
 * so that only a change of the draft (not of errors or busy state) reaches the frame.
 */
export function SettingsPreview({ draft }: { draft: PreviewDraft }) {
  const { t } = useI18n();
  const frame = useRef<HTMLIFrameElement>(null);
  const [frameReady, setFrameReady] = useState(0);

  // The preview frame says when it listens (again after each load); it then gets every draft. The
  // listener is there before the frame can speak (a layout effect runs as the frame is inserted), and
  // the frame's load counts as ready too, in case its one message was missed all the same.
  useLayoutEffect(() => {
    const heard = (e: MessageEvent) => {
      const from = frame.current?.contentWindow;
      if (e.origin !== location.origin || !from || e.source !== from) return;
      if ((e.data as { type?: unknown } | null)?.type === PREVIEW_READY) setFrameReady((n) => n + 1);
    };
    window.addEventListener('message', heard);
    return () => window.removeEventListener('message', heard);
  }, []);
  useEffect(() => {
    if (frameReady === 0) return;
    frame.current?.contentWindow?.postMessage({ type: PREVIEW_MESSAGE, draft }, location.origin);
  }, [frameReady, draft]);

  return (
    <aside class="pd-preview" aria-labelledby="settings-preview-title">
      <h2 id="settings-preview-title">{t('settingsPreview')}</h2>
      <p class="pd-hint">{t('settingsPreviewIntro')}</p>
      <iframe
        ref={frame}
        class="pd-preview-frame"
        src="/pay/preview"
        title={t('settingsPreviewFrame')}
        onLoad={() => setFrameReady((n) => n + 1)}
        data-testid="settings-preview"
      />
    </aside>
  );
}
