/**
 * The dashboard's preview of the hosted page (`/pay/preview`, issue 16): the draft settings the
 * dashboard (this origin, the parent window) posts are shown at once. A chunk of its own, loaded
 * only by the preview: the payment page itself listens to no message (security row 12).
 */
import type { WidgetSession } from '../../../shared/checkout/index.ts';
import type { Initial } from './components/app.tsx';
import { english } from './i18n/index.ts';
import { PREVIEW_READY, previewDraft, withDraft } from './preview.ts';

export function startPreview(sample: WidgetSession, start: (initial: Initial) => void): void {
  start({ session: sample, i18n: english });
  window.addEventListener('message', (event) => {
    if (event.origin !== location.origin || event.source !== window.parent) return;
    const draft = previewDraft(event.data);
    if (draft) start({ session: withDraft(sample, draft), i18n: english });
  });
  // Its links lead nowhere from inside the dashboard: a preview is looked at, not used.
  document.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.closest('a')) e.preventDefault();
  });
  if (window.parent !== window) window.parent.postMessage({ type: PREVIEW_READY }, location.origin);
}
