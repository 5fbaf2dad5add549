/**
 * The demo store's pages: plain HTML, every interpolated value escaped, no inline script or style
 * (the store's CSP allows scripts only from itself and Payframe). Page behaviour is in
 * public/demo.js.
 */

export const PRODUCT = { name: 'Payframe T-shirt', amount: '24.99', currency: 'USD' } as const;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const esc = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function layout(payframeUrl: string, title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <link rel="icon" href="data:," />
    <title>${esc(title)} · Payframe Demo Store</title>
    <link rel="stylesheet" href="/static/demo.css" />
    <script src="${esc(payframeUrl)}/checkout.js" async></script>
    <script src="/static/demo.js" defer></script>
  </head>
  <body>
    <header class="bar">
      <a class="brand" href="/">Payframe Demo Store</a>
      <nav aria-label="Demo pages">
        <a href="/">Product</a> <a href="/two">Two widgets</a> <a href="/plain">Plain iframe</a>
      </nav>
    </header>
    <main>
${main}
    </main>
  </body>
</html>
`;
}

const events = `      <section aria-labelledby="events-title">
        <h2 id="events-title">Events</h2>
        <ol id="events" class="events"></ol>
      </section>`;

export function productPage(
  payframeUrl: string,
  embed: { token: string },
  modal: { token: string },
  hosted: { url: string },
  outboxUrl: string | null = null,
): string {
  return layout(
    payframeUrl,
    PRODUCT.name,
    `      <h1>${PRODUCT.name}</h1>
      <p class="price">$${PRODUCT.amount}</p>
      <p>Soft organic cotton, printed with the Payframe logo. Three ways to pay below; each uses its
        own checkout session. Test card: 4242 4242 4242 4242, any future date, any CVC.</p>${
          outboxUrl
            ? `
      <p id="outbox-note">Saving a card, or paying with one saved, asks for a one-time code sent by
        e-mail or SMS. Nothing leaves this machine: the codes and e-mails are in Payframe's outbox,
        <a href="${esc(outboxUrl)}">${esc(outboxUrl)}</a>.</p>`
            : ''
        }
      <section aria-labelledby="embed-title">
        <h2 id="embed-title">Pay on this page</h2>
        <div id="embedded" class="widget" data-payframe-session="${esc(embed.token)}"></div>
        <p id="embedded-result" class="result" role="status"></p>
      </section>
      <section aria-labelledby="modal-title">
        <h2 id="modal-title">Pay in a modal</h2>
        <button id="open-modal" class="button" type="button" data-session="${esc(modal.token)}">Pay $${PRODUCT.amount} in a modal</button>
        <p id="modal-result" class="result" role="status"></p>
      </section>
      <section aria-labelledby="hosted-title">
        <h2 id="hosted-title">Pay on Payframe's page</h2>
        <p><a id="hosted-link" href="${esc(hosted.url)}">Pay $${PRODUCT.amount} on the hosted payment page</a>;
          you come back to this store's <code>/return</code> page, which verifies the signed redirect.</p>
      </section>
${events}`,
  );
}

export function twoWidgetsPage(payframeUrl: string, a: { token: string }, b: { token: string }): string {
  const widget = (id: string, label: string, token: string) => `      <section aria-labelledby="${id}-title">
        <h2 id="${id}-title">${label}</h2>
        <div id="${id}" class="widget" data-payframe-session="${esc(token)}"></div>
        <p id="${id}-result" class="result" role="status"></p>
      </section>`;
  return layout(
    payframeUrl,
    'Two widgets',
    `      <h1>Two widgets on one page</h1>
      <p>Two checkout sessions, two widgets: paying one tells only that one.</p>
      <div class="two">
${widget('widget-a', 'Order A', a.token)}
${widget('widget-b', 'Order B', b.token)}
      </div>
${events}`,
  );
}

export function plainIframePage(payframeUrl: string, session: { token: string }): string {
  return layout(
    payframeUrl,
    'Plain iframe',
    `      <h1>A plain iframe</h1>
      <p>No loader: the page frames <code>/pay/TOKEN?embed=1&amp;v=2</code> itself and listens to its messages.</p>
      <iframe id="plain-frame" src="${esc(payframeUrl)}/pay/${esc(session.token)}?embed=1&amp;v=2" title="Secure payment form" allow="payment" width="100%" height="640"></iframe>
      <p id="plain-frame-result" class="result" role="status"></p>
${events}`,
  );
}

export interface ReturnView {
  verified: boolean;
  params: Record<'status' | 'transactionId' | 'orderNumber' | 'amount', string>;
  /** The session's status as Payframe reports it server to server, when the order is known. */
  confirmed: string | null;
}

export function returnPage(payframeUrl: string, view: ReturnView): string {
  const p = view.params;
  const details = `        <dl class="details">
          <dt>Status</dt><dd>${esc(p.status)}</dd>
          <dt>Order</dt><dd>${esc(p.orderNumber)}</dd>
          <dt>Amount</dt><dd>${esc(p.amount)}</dd>
          <dt>Transaction</dt><dd>${esc(p.transactionId)}</dd>
        </dl>`;
  return layout(
    payframeUrl,
    view.verified ? 'Payment verified' : 'Signature invalid',
    view.verified
      ? `      <h1 id="return-result">Payment verified</h1>
      <p>The redirect's signature is valid: these values come from Payframe.</p>
${details}
      <p id="confirmed">${view.confirmed ? `Payframe confirms this session is <strong>${esc(view.confirmed)}</strong>.` : 'This order is not one this store created.'}</p>`
      : `      <h1 id="return-result">Signature invalid</h1>
      <p>The redirect's parameters were not signed by Payframe for this store: do not trust them.</p>`,
  );
}

export function errorPage(payframeUrl: string, message: string): string {
  return layout(
    payframeUrl,
    'Not available',
    `      <h1>The demo store cannot take payments</h1>
      <p>${esc(message)}</p>`,
  );
}
