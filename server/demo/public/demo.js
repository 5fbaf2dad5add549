// The demo store's page script (served as a file: the store's CSP allows no inline script).
// It shows what a merchant page sees: the widget's events, the modal's callbacks, and for the
// plain iframe, the messages it checks itself.
/* global document, window */
'use strict';

const EVENTS = ['ready', 'success', 'error', 'cancel', 'expired'];

function log(text) {
  const list = document.getElementById('events');
  if (!list) return;
  const item = document.createElement('li');
  item.textContent = text;
  list.appendChild(item);
}

function describe(payment) {
  return `Paid $${payment.amount}: order ${payment.orderNumber}, transaction ${payment.transactionId}.`;
}

function show(id, text) {
  const el = document.getElementById(id);
  if (el) el.textContent = text;
}

// Widgets mounted from a data-payframe-session attribute: their DOM events bubble to the document.
for (const name of EVENTS) {
  document.addEventListener(`payframe:${name}`, (event) => {
    const target = event.target.id || 'modal';
    log(`payframe:${name} on #${target}${event.detail ? ` ${JSON.stringify(event.detail)}` : ''}`);
    if (name === 'success' && event.target.id) show(`${event.target.id}-result`, describe(event.detail));
    if (name === 'error' && event.target.id) show(`${event.target.id}-result`, event.detail.message);
  });
}

function whenPayframe(fn) {
  if (window.Payframe) fn(window.Payframe);
  else window.addEventListener('payframe:loaded', () => fn(window.Payframe), { once: true });
}

const modalButton = document.getElementById('open-modal');
if (modalButton) {
  modalButton.addEventListener('click', () => {
    whenPayframe((Payframe) => {
      Payframe.open({
        session: modalButton.dataset.session,
        onSuccess(payment) {
          show('modal-result', describe(payment));
        },
        onCancel(detail) {
          show('modal-result', detail.reason === 'canceled' ? 'Payment canceled.' : 'Payment window closed.');
        },
      });
    });
  });
}

// The plain iframe: no loader, so the page checks the messages itself (merchant guide, "Listen to
// events"): Payframe's origin, this frame's window, Payframe's tag and version.
const frame = document.getElementById('plain-frame');
if (frame) {
  const payframeOrigin = new URL(frame.src).origin;
  window.addEventListener('message', (event) => {
    if (event.origin !== payframeOrigin || event.source !== frame.contentWindow) return;
    const message = event.data;
    if (!message || message.source !== 'payframe' || message.v !== 2) return;
    if (message.type === 'resize') {
      frame.height = String(message.height);
      return;
    }
    log(`message ${message.type}${message.data ? ` ${JSON.stringify(message.data)}` : ''}`);
    if (message.type === 'success') show('plain-frame-result', describe(message.data));
  });
}
