/**
 * Embed mode (`?embed=1&v=2&instance=<id>[&origin=<parent origin>]`): the page tells the page that
 * frames it what happens (shared/checkout/embed-messages.ts), by postMessage with an exact target
 * origin, one of the merchant's registered origins (EMB-4), never '*'. No message carries card or
 * bank data (EMB-6). Without `v=2` the messages keep version 1's shapes (a page pinned to an older
 * loader build checks them key for key).
 */
import type {
  EmbedCancel,
  EmbedError,
  EmbedLoadError,
  EmbedSuccess,
  EmbedWords,
} from '../../../shared/checkout/embed-messages.ts';
import type { PageLang } from '../../../shared/checkout/page-state.ts';

export type Payload =
  | { type: 'expired' | 'escape' }
  | { type: 'ready'; lang: PageLang }
  /** Version 2 only: the loader's words in the form's language. */
  | { type: 'words'; words: EmbedWords }
  | { type: 'cancel'; data: EmbedCancel }
  | { type: 'success'; data: EmbedSuccess }
  | { type: 'error'; data: EmbedError }
  | { type: 'resize'; height: number }
  /** Version 2 only: a version-1 page never heard of it. */
  | { type: 'loaderror'; data: EmbedLoadError };

/** What the host page hears of a payment: the receipt's public facts, never card data. */
export function successMessage(
  receipt: {
    transactionId: string | null;
    orderNumber: string | null;
    amount: string;
    currency: string | null;
  },
  status: EmbedSuccess['status'],
): Payload {
  const { transactionId, orderNumber, amount, currency } = receipt;
  return { type: 'success', data: { transactionId, orderNumber, amount, currency, status } };
}

/**
 * The message for version `v` of the protocol: version 1 leaves out what version 2 added, and
 * null for a message version 1 does not have (`loaderror`).
 */
export function messageFor(v: 1 | 2, instance: string, p: Payload): object | null {
  if (v === 2) return { source: 'payframe', v, instance, ...p };
  if (p.type === 'loaderror' || p.type === 'words') return null;
  let old: object = p;
  if (p.type === 'ready' || p.type === 'cancel') old = { type: p.type };
  else if (p.type === 'success') {
    const { currency: _currency, ...data } = p.data;
    old = { type: p.type, data };
  } else if (p.type === 'error') old = { type: p.type, data: { code: p.data.code, message: p.data.message } };
  return { source: 'payframe', v, instance, ...old };
}

export interface Embed {
  send: (p: Payload) => void;
  /** The registered origins are known once the session is loaded; nothing is sent before. */
  setOrigins: (registered: readonly string[]) => void;
}

export function createEmbed(params: URLSearchParams): Embed | null {
  if (params.get('embed') !== '1' || window.parent === window) return null;
  const instance = (params.get('instance') ?? '').slice(0, 64);
  const asked = params.get('origin');
  const version = params.get('v') === '2' ? 2 : 1;
  let targets: string[] = [];
  let lastHeight = -1;
  const queue: Payload[] = [];

  const post = (p: Payload) => {
    const message = messageFor(version, instance, p);
    if (!message) return;
    for (const origin of targets) window.parent.postMessage(message, origin);
  };
  const embed: Embed = {
    send(p) {
      if (p.type === 'resize') {
        if (p.height === lastHeight) return;
        lastHeight = p.height;
      }
      if (targets.length > 0) return post(p);
      // Until the origins are known only the latest size counts: the loader hears one height, the
      // one on screen, rather than every step of the first layouts (issue 14 §3).
      if (p.type === 'resize') {
        const i = queue.findIndex((q) => q.type === 'resize');
        if (i >= 0) queue.splice(i, 1);
      }
      queue.push(p);
    },
    setOrigins(registered) {
      // Only the origin the loader named, when it is registered; else every registered origin
      // (a browser delivers to the one that matches the parent and drops the others).
      targets = asked && registered.includes(asked) ? [asked] : [...registered];
      for (const p of queue.splice(0)) post(p);
    },
  };
  // The frame has the focus, so the host page cannot hear Esc: tell it (a modal closes on it).
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented) embed.send({ type: 'escape' });
  });
  if (typeof ResizeObserver === 'function') {
    new ResizeObserver(() =>
      embed.send({
        type: 'resize',
        height: Math.ceil(document.documentElement.getBoundingClientRect().height),
      }),
    ).observe(document.documentElement);
  }
  return embed;
}
