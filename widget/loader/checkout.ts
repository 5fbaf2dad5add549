/**
 * Payframe's embed loader, served as /checkout.js (DESIGN.md §11; docs/merchant-guide.md "Embed the
 * checkout"). No framework and no dependency: it must stay under 3 KB gzip (widget/budgets.test.ts).
 *
 *   <script src="https://pay.example/checkout.js" async></script>
 *   <div data-payframe-session="cs_…"></div>
 *
 * Payframe's origin comes from this script's own URL, never from the page: the page decides where
 * the script comes from, and the iframe and every accepted message must come from that same place.
 */
import { openModal } from './modal.ts';
import { createWidget, type Instance, type MountOptions } from './widget.ts';

interface PayframeApi {
  version: string;
  mount(target: Element | string, options: MountOptions): Instance;
  open(options: MountOptions): Instance;
}

declare global {
  interface Window {
    Payframe?: PayframeApi;
  }
}

function scriptOrigin(): string {
  const own = document.currentScript as HTMLScriptElement | null;
  // document.currentScript is null only when run from a module or a callback; fall back to the tag.
  const src = own?.src || document.querySelector<HTMLScriptElement>('script[src*="/checkout."]')?.src;
  if (!src) throw new Error('Payframe: load checkout.js with a <script src> tag.');
  return new URL(src).origin;
}

if (!window.Payframe) {
  const origin = scriptOrigin();
  const mounted = new WeakMap<Element, Instance>();

  const mount = (target: Element | string, options: MountOptions): Instance => {
    const host = typeof target === 'string' ? document.querySelector(target) : target;
    if (!(host instanceof HTMLElement)) throw new TypeError(`Payframe: no element ${target as string}`);
    mounted.get(host)?.destroy();
    const [instance] = createWidget(origin, host, options);
    mounted.set(host, instance);
    return instance;
  };

  // Hosts mounted from their attribute, and the session they were mounted with.
  const auto = new Map<HTMLElement, string | undefined>();

  const scan = () => {
    // A host taken out of the page, or given another session, lets its widget go (listener, frame).
    auto.forEach((session, host) => {
      if (!host.isConnected || host.dataset.payframeSession !== session) {
        mounted.get(host)?.destroy();
        mounted.delete(host);
        auto.delete(host);
      }
    });
    document.querySelectorAll<HTMLElement>('[data-payframe-session]').forEach((host) => {
      if (mounted.has(host)) return;
      const d = host.dataset;
      auto.set(host, d.payframeSession);
      try {
        mount(host, {
          session: d.payframeSession!,
          locale: d.payframeLocale,
          // JSON text, passed on as it is: the hosted page checks it (and reports it invalid).
          theme: d.payframeTheme,
          // Only 'fields' changes anything (frameUrl); any other value is the full layout.
          layout: d.payframeLayout as MountOptions['layout'],
        });
      } catch (err) {
        mounted.set(host, { destroy() {} } as Instance); // reported once, not on every mutation
        console.error(err);
      }
    });
  };

  window.Payframe = { version: '1', mount, open: (options) => openModal(origin, options) };
  // An async script may run before or after the document is parsed: the observer sees what the
  // parser adds after this first scan, and elements added later.
  scan();
  new MutationObserver(scan).observe(document.documentElement, {
    childList: true,
    subtree: true,
    // (attributeFilter implies attributes: true)
    attributeFilter: ['data-payframe-session'],
  });
  dispatchEvent(new Event('payframe:loaded'));
}
