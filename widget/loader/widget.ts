/**
 * One mounted checkout: the iframe, its events and its message listener (DESIGN.md §11;
 * security-requirements.md EMB-5). Messages count only when they come from Payframe's origin, from
 * this instance's own iframe window, and carry this instance's id: two widgets never cross-talk.
 */
import type { EmbedEventName, EmbedMessage } from '../../shared/checkout/embed-messages.ts';
import { parseEmbedMessage, SESSION_TOKEN, WORDS } from './messages.ts';

export type Handler = (detail?: unknown) => void;

export interface MountOptions {
  session: string;
  locale?: string;
  /** `{primaryColor, radius, font, mode}`; the hosted page validates it (shared Theme schema). */
  theme?: Record<string, unknown>;
  onReady?: Handler;
  onSuccess?: Handler;
  onError?: Handler;
  onCancel?: Handler;
  onExpired?: Handler;
}

export type Emit = (name: EmbedEventName, detail?: unknown) => void;

export interface Instance {
  readonly iframe: HTMLIFrameElement;
  on(event: EmbedEventName, fn: Handler): Instance;
  off(event: EmbedEventName, fn: Handler): Instance;
  destroy(): void;
}

const CALLBACKS: Record<EmbedEventName, keyof MountOptions> = {
  ready: 'onReady',
  success: 'onSuccess',
  error: 'onError',
  cancel: 'onCancel',
  expired: 'onExpired',
};

/** 128 random bits in hex: unguessable, so another frame cannot address this instance. */
function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let id = '';
  for (let i = 0; i < bytes.length; i++) id += (bytes[i]! + 256).toString(16).slice(1);
  return id;
}

export function frameUrl(payframeOrigin: string, options: MountOptions, instance: string): string {
  // v=2: the message version this loader checks (shared/checkout/embed-messages.ts EMBED_VERSION).
  const q = new URLSearchParams({ embed: '1', v: '2', instance, origin: location.origin });
  if (options.locale) q.set('locale', options.locale);
  if (options.theme) q.set('theme', JSON.stringify(options.theme));
  return `${payframeOrigin}/pay/${options.session}?${q}`;
}

/**
 * Until the form says which language it chose (its `ready` message): the widget's locale, else the
 * host page's language.
 */
export const wordsFor = (options: MountOptions) =>
  WORDS[/^es/i.test(options.locale || document.documentElement.lang) ? 'es' : 'en']!;

export function createWidget(
  payframeOrigin: string,
  host: HTMLElement,
  options: MountOptions,
  /** Called before listeners, for the modal's own reactions (close on cancel). */
  intercept?: (m: EmbedMessage) => void,
): [Instance, Emit] {
  if (typeof options.session !== 'string' || !SESSION_TOKEN.test(options.session)) {
    throw new TypeError('Payframe: `session` must be a checkout-session token (cs_…) from your server.');
  }
  const id = randomId();
  const iframe = document.createElement('iframe');
  iframe.src = frameUrl(payframeOrigin, options, id);
  iframe.title = wordsFor(options).frame;
  iframe.allow = 'payment';
  iframe.setAttribute('scrolling', 'no');
  // Until the first resize message: room for the form's skeleton rather than a 150px sliver.
  // (CSSOM, not a style attribute: allowed under a merchant CSP without 'unsafe-inline'.)
  iframe.style.cssText = 'display:block;width:100%;height:480px;border:0;overflow:hidden';

  const listeners: Partial<Record<EmbedEventName, Handler[]>> = {};
  const emit: Emit = (name, detail) => {
    const callback = options[CALLBACKS[name]];
    const all = (listeners[name] || []).slice();
    if (typeof callback === 'function') all.unshift(callback as Handler);
    for (const fn of all) {
      // One failing merchant handler must not keep the others (or the DOM event) from running.
      try {
        fn(detail);
      } catch (err) {
        setTimeout(() => {
          throw err;
        });
      }
    }
    host.dispatchEvent(new CustomEvent(`payframe:${name}`, { detail, bubbles: true }));
  };

  const onMessage = (event: MessageEvent) => {
    if (event.origin !== payframeOrigin || event.source !== iframe.contentWindow) return;
    const m = parseEmbedMessage(event.data, id);
    if (!m) return;
    if (m.type === 'resize') {
      iframe.style.height = `${m.height}px`;
      return;
    }
    // The form's language, chosen from the session too: the loader's words follow it.
    if (m.type === 'ready') iframe.title = WORDS[m.lang]!.frame;
    if (intercept) intercept(m);
    if (m.type !== 'escape') emit(m.type, 'data' in m ? Object.assign({}, m.data) : undefined);
  };
  addEventListener('message', onMessage);
  host.appendChild(iframe);

  const instance: Instance = {
    iframe,
    on(name, fn) {
      (listeners[name] = listeners[name] || []).push(fn);
      return instance;
    },
    off(name, fn) {
      const list = listeners[name] || [];
      const at = list.indexOf(fn);
      if (at >= 0) list.splice(at, 1);
      return instance;
    },
    destroy() {
      removeEventListener('message', onMessage);
      iframe.remove();
    },
  };
  // `emit` stays private: the modal fires `cancel` itself (Esc, close button) through it.
  return [instance, emit];
}
