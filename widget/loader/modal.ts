/**
 * `Payframe.open()`: the checkout as a modal overlay (WAI-ARIA dialog pattern). The form lives in a
 * cross-origin iframe the page cannot reach into, so the focus trap works with what the page owns:
 * one close control, after the frame in the focus order (shown at the top corner), and two focus
 * guards. Tab from the close control goes to the dialog, whose next Tab enters the form at its
 * first field; Shift+Tab from the form's first field reaches the close control, and from there the
 * form's last field. Closing is not cancelling (issue 14 §1): it fires `payframe:cancel` with
 * `{reason: 'closed', sessionOpen}` and the session stays payable; only the form's confirmed
 * "Cancel payment" ends it (`reason: 'canceled'`). The modal's words are the form's, in its
 * language (its `words` message); English until they come.
 * Styles go through the CSSOM, which a merchant CSP without 'unsafe-inline' still allows.
 */
import type { EmbedMessage } from '../../shared/checkout/embed-messages.ts';
import { WORDS } from './messages.ts';
import { createWidget, type Instance, type MountOptions } from './widget.ts';

let closeCurrent: (() => void) | null = null;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, css: string, parent: HTMLElement) {
  const e = document.createElement(tag);
  e.style.cssText = css;
  return parent.appendChild(e);
}

const matches = (query: string) => matchMedia(query).matches;

export function openModal(payframeOrigin: string, options: MountOptions): Instance {
  if (closeCurrent) closeCurrent();
  let words = WORDS;
  const mode = options.theme && (options.theme as Record<string, unknown>).mode;
  const dark = mode === 'dark' || (mode !== 'light' && matches('(prefers-color-scheme: dark)'));
  const fg = dark ? '#f2f2f7' : '#1c1c1e';
  const opener = document.activeElement as HTMLElement | null;

  const overlay = document.createElement('div');
  overlay.style.cssText =
    'position:fixed;inset:0;z-index:2147483000;display:flex;overflow-y:auto;padding:16px 8px;box-sizing:border-box;background:rgba(0,0,0,.55)';
  const guard = () => {
    const g = el('div', 'position:absolute;width:1px;height:1px;overflow:hidden', overlay);
    g.tabIndex = 0;
    return g;
  };
  const first = guard();
  const dialog = el(
    'div',
    `position:relative;width:100%;max-width:480px;margin:auto;border-radius:12px;box-shadow:0 12px 40px rgba(0,0,0,.35);font:16px/1.4 system-ui,sans-serif;color:${fg};background:${dark ? '#1c1c1e' : '#fff'}`,
    overlay,
  );
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-modal', 'true');
  dialog.tabIndex = -1;

  const title = el('h2', 'margin:0;padding:18px 56px 4px 16px;font-size:1rem', dialog);
  const body = el('div', 'padding:0 8px 8px', dialog);
  // The one close control: a 44px target (WCAG 2.5.5) in the top corner, last in the focus order.
  const closer = el(
    'button',
    `position:absolute;top:4px;inset-inline-end:4px;min-width:44px;min-height:44px;border:0;border-radius:8px;background:none;cursor:pointer;font:1.5rem/1 system-ui,sans-serif;color:${fg}`,
    dialog,
  );
  closer.textContent = '×';
  closer.onclick = () => close(true);
  // The dialog is named by its visible title's words (aria-label: no id to make unique).
  const say = () => {
    dialog.setAttribute('aria-label', (title.textContent = words.title));
    closer.setAttribute('aria-label', words.close);
  };
  say();
  const last = guard();
  first.onfocus = () => closer.focus();
  last.onfocus = () => dialog.focus();

  let paid = false;
  let ended = false;
  let closed = false;
  const [instance, emit] = createWidget(payframeOrigin, body, options, (m: EmbedMessage) => {
    // The form's words in its language: the title and the close button's name.
    if (m.type === 'words') {
      words = m.words;
      say();
    }
    if (m.type === 'success') paid = true;
    if (m.type === 'expired') ended = true;
    // The shopper confirmed "Cancel payment" inside the form: its event is on the way; close after it.
    if (m.type === 'cancel') setTimeout(() => close(false));
    // Esc pressed inside the form, which the page's own key listener cannot hear.
    if (m.type === 'escape') close(true);
  });

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    }
  };

  // The rest of the page becomes inert: out of reach of Tab, clicks and screen readers.
  const inerted: HTMLElement[] = [];
  for (const child of [...document.body.children] as HTMLElement[]) {
    if (!child.inert) {
      child.inert = true;
      inerted.push(child);
    }
  }
  const root = document.documentElement.style;
  const overflow = root.overflow;
  root.overflow = 'hidden';
  document.body.appendChild(overlay);
  document.addEventListener('keydown', onKey, true);
  dialog.focus();
  if (!matches('(prefers-reduced-motion: reduce)')) {
    dialog.animate([{ opacity: 0, transform: 'translateY(12px)' }, {}], {
      duration: 160,
      easing: 'ease-out',
    });
  }

  function close(byShopper: boolean) {
    if (closed) return;
    closed = true;
    closeCurrent = null;
    // Fired while the overlay is still in the document, so `payframe:cancel` bubbles to the page.
    // Closing leaves the session as it was: open, unless it had expired meanwhile.
    if (byShopper && !paid) emit('cancel', { reason: 'closed', sessionOpen: !ended });
    document.removeEventListener('keydown', onKey, true);
    destroyFrame();
    overlay.remove();
    for (const child of inerted) child.inert = false;
    root.overflow = overflow;
    opener?.focus?.();
  }
  const destroyFrame = instance.destroy;
  closeCurrent = instance.destroy = () => close(false);
  return instance;
}
