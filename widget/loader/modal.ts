/**
 * `Payframe.open()`: the checkout as a modal overlay (WAI-ARIA dialog pattern). The form lives in a
 * cross-origin iframe the page cannot reach into, so the focus trap works with what the page owns:
 * a close button before the frame and one after it, and two focus guards that wrap from one to the
 * other. Tab and Shift+Tab then enter the frame at its first or last field, as they would anyway.
 * Styles go through the CSSOM, which a merchant CSP without 'unsafe-inline' still allows.
 */
import type { EmbedMessage } from '../../shared/checkout/embed-messages.ts';
import { createWidget, type Instance, isSpanish, type MountOptions } from './widget.ts';

let closeCurrent: (() => void) | null = null;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, css: string, parent: HTMLElement) {
  const e = document.createElement(tag);
  e.style.cssText = css;
  return parent.appendChild(e);
}

const matches = (query: string) => matchMedia(query).matches;

export function openModal(payframeOrigin: string, options: MountOptions): Instance {
  if (closeCurrent) closeCurrent();
  const spanish = isSpanish(options);
  const mode = options.theme && options.theme.mode;
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
  const titleId = `payframe-title-${Math.random().toString(36).slice(2)}`;
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-labelledby', titleId);
  dialog.tabIndex = -1;

  const header = el('div', 'display:flex;align-items:center;padding:8px 8px 0 16px', dialog);
  const title = el('h2', 'flex:1;margin:0;font-size:1rem', header);
  title.id = titleId;
  title.textContent = spanish ? 'Pago seguro' : 'Secure checkout';
  const closeLabel = spanish ? 'Cerrar' : 'Close';
  // 44px targets (WCAG 2.5.5); the browser's own focus ring is left alone.
  const button = (css: string, parent: HTMLElement) => {
    const b = el(
      'button',
      `min-width:44px;min-height:44px;border:0;border-radius:8px;background:none;cursor:pointer;font:inherit;color:${fg};${css}`,
      parent,
    );
    b.type = 'button';
    b.onclick = () => close(true);
    return b;
  };
  const closeTop = button('font-size:1.5rem', header);
  closeTop.setAttribute('aria-label', closeLabel);
  closeTop.textContent = '×';
  const body = el('div', 'padding:0 8px', dialog);
  const footer = el('div', 'text-align:end;padding:0 8px 8px', dialog);
  const closeBottom = button('text-decoration:underline;padding:0 12px', footer);
  closeBottom.textContent = closeLabel;
  const last = guard();
  first.onfocus = () => closeBottom.focus();
  last.onfocus = () => closeTop.focus();

  let paid = false;
  let closed = false;
  const [instance, emit] = createWidget(payframeOrigin, body, options, (m: EmbedMessage) => {
    if (m.type === 'success') paid = true;
    // The shopper chose "cancel" inside the form: its event is on the way; close after it.
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
  for (const child of Array.from(document.body.children) as HTMLElement[]) {
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
    if (byShopper && !paid) emit('cancel');
    document.removeEventListener('keydown', onKey, true);
    destroyFrame();
    overlay.remove();
    for (const child of inerted) child.inert = false;
    root.overflow = overflow;
    if (opener && opener.focus) opener.focus();
  }
  const destroyFrame = instance.destroy;
  closeCurrent = instance.destroy = () => close(false);
  return instance;
}
