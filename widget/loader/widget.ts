/**
 * One mounted checkout: the iframe, its events and its message listener (DESIGN.md §11;
 * security-requirements.md EMB-5). Messages count only when they come from Payframe's origin, from
 * this instance's own iframe window, and carry this instance's id: two widgets never cross-talk.
 */
import type { EmbedEventName, EmbedMessage, LoadErrorReason } from '../../shared/checkout/embed-messages.ts';
import { parseEmbedMessage, SESSION_TOKEN, WORDS } from './messages.ts';

export type Handler = (detail?: unknown) => void;

export interface MountOptions {
  session: string;
  locale?: string;
  /**
   * `{primaryColor, radius, font, mode}`, or that as JSON text (`data-payframe-theme`); the hosted
   * page validates it (shared Theme schema) and reports one it refuses (`loaderror` invalid_theme).
   */
  theme?: Record<string, unknown> | string;
  /**
   * `full` (the default): the order beside the payment; `fields`: the payment fields and Pay only,
   * for a page that shows the order itself.
   */
  layout?: 'full' | 'fields';
  onReady?: Handler;
  onSuccess?: Handler;
  onError?: Handler;
  onCancel?: Handler;
  onExpired?: Handler;
  onLoaderror?: Handler;
}

export type Emit = (name: EmbedEventName, detail?: unknown) => void;

export interface Instance {
  readonly iframe: HTMLIFrameElement;
  on(event: EmbedEventName, fn: Handler): Instance;
  off(event: EmbedEventName, fn: Handler): Instance;
  destroy(): void;
}

/** How long the frame has to say `ready` before `loaderror` {reason: 'no_response'}. */
const LOAD_TIMEOUT_MS = 15000;

/** The fix a `loaderror` asks of the integrator, said in the console ('expired', 'canceled': a new session). */
const fix = (reason: LoadErrorReason) =>
  reason === 'no_response'
    ? `no answer: register ${location.origin}, check the token, the network`
    : reason === 'invalid_theme'
      ? 'theme refused (see the guide)'
      : `session ${reason}: create a new one`;

/** The `on<Name>` option of an event: `ready` → `onReady`. */
const callbackOf = (name: string) => ('on' + name[0]!.toUpperCase() + name.slice(1)) as keyof MountOptions;

/** 128 random bits in hex: unguessable, so another frame cannot address this instance. */
const randomId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => (b + 256).toString(16).slice(1)).join('');

export function frameUrl(payframeOrigin: string, options: MountOptions, instance: string): string {
  // v=2: the message version this loader checks (shared/checkout/embed-messages.ts EMBED_VERSION).
  const q = new URLSearchParams({ embed: '1', v: '2', instance, origin: location.origin });
  if (options.locale) q.set('locale', options.locale);
  if (options.layout === 'fields') q.set('layout', 'fields');
  const { theme } = options;
  if (theme) q.set('theme', typeof theme === 'string' ? theme : JSON.stringify(theme));
  return `${payframeOrigin}/pay/${options.session}?${q}`;
}

export function createWidget(
  payframeOrigin: string,
  host: HTMLElement,
  options: MountOptions,
  /** Called before listeners, for the modal's own reactions (close on cancel). */
  intercept?: (m: EmbedMessage) => void,
): [Instance, Emit] {
  if (!SESSION_TOKEN.test(options.session)) {
    throw new TypeError('Payframe: `session` must be a checkout-session token (cs_…) from your server.');
  }
  const id = randomId();
  const iframe = document.createElement('iframe');
  iframe.src = frameUrl(payframeOrigin, options, id);
  iframe.title = WORDS.frame;
  iframe.allow = 'payment';
  iframe.scrolling = 'no'; // (the attribute: obsolete, still honoured by every browser)
  // Until the first resize message: room for the form's skeleton rather than a 150px sliver.
  // (CSSOM, not a style attribute: allowed under a merchant CSP without 'unsafe-inline'.)
  iframe.style.cssText = 'display:block;width:100%;height:480px;border:0;overflow:hidden';

  const listeners: Partial<Record<EmbedEventName, Handler[]>> = {};
  const emit: Emit = (name, detail) => {
    if (name === 'loaderror')
      console.warn('Payframe: ' + fix((detail as { reason: LoadErrorReason }).reason));
    // The option first, then on() handlers (a copy: a handler may add or remove others).
    for (const fn of [options[callbackOf(name)], ...(listeners[name] || [])]) {
      // One failing merchant handler must not keep the others (or the DOM event) from running.
      try {
        if (typeof fn === 'function') (fn as Handler)(detail);
      } catch (err) {
        setTimeout(() => {
          throw err;
        });
      }
    }
    host.dispatchEvent(new CustomEvent(`payframe:${name}`, { detail, bubbles: true }));
  };

  // A frame refused (unregistered origin, unknown token: frame-ancestors) or lost never says `ready`.
  const timer = setTimeout(emit, LOAD_TIMEOUT_MS, 'loaderror', { reason: 'no_response' });

  const onMessage = (event: MessageEvent) => {
    if (event.origin !== payframeOrigin || event.source !== iframe.contentWindow) return;
    const m = parseEmbedMessage(event.data, id);
    if (!m) return;
    if (m.type === 'resize') {
      iframe.style.height = `${m.height}px`;
      return;
    }
    if (m.type === 'ready') clearTimeout(timer);
    // The form's words in its language: the frame's name (the modal takes the rest).
    if (m.type === 'words') iframe.title = m.words.frame;
    if (intercept) intercept(m);
    if (m.type !== 'escape' && m.type !== 'words') emit(m.type, 'data' in m ? { ...m.data } : undefined);
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
      // Not found: -1 >>> 0 is past the end, so nothing is removed.
      list.splice(list.indexOf(fn) >>> 0, 1);
      return instance;
    },
    destroy() {
      clearTimeout(timer);
      removeEventListener('message', onMessage);
      iframe.remove();
    },
  };
  // `emit` stays private: the modal fires `cancel` itself (Esc, close button) through it.
  return [instance, emit];
}
