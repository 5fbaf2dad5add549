/**
 * The text policy (shared/text/text-policy.ts) over every string element of the Transaction
 * Service's operations, whoever calls (DESIGN.md §18; issue 13 §4): each is put in NFC and refused
 * when it holds a control, bidi or invisible character. The gateway runs this on each call before
 * its handler (server/gateway/gateway.ts), so SOAP 1.1/1.2, HTTP GET/POST, the checkout's
 * in-process calls and the CLI store and show the same text.
 *
 * Left alone: the elements that hold card data or a secret (card-text.ts: they have checks of their
 * own, and a secret is compared as sent), a session's URLs (their validator refuses the same
 * characters, raw or encoded, with its own field error), and SignForMerchant's message, which is
 * signed byte for byte and never shown.
 *
 * Pure: no I/O, no Node imports.
 */
import { normalizeText, type TextProblem, textProblem } from '../text/text-policy.ts';
import { CARD_DATA_ELEMENTS, CARD_DATA_PARAMS } from './card-text.ts';
import type { OperationName } from './operations.ts';
import { type ElementExemptions, STOP, walkStringElements } from './string-elements.ts';

/** A session's URLs (CreateHostedPayment). */
const URL_ELEMENTS = ['ReturnUrl', 'WebhookUrl', 'CancelUrl'];

export const TEXT_POLICY_EXEMPT: ElementExemptions = {
  elements: {
    ...CARD_DATA_ELEMENTS,
    // URLs have one validator of their own (shared/return-url.ts), which refuses the same
    // characters raw or percent-encoded and answers with the URL's own field error.
    HostedPaymentRequest: [...(CARD_DATA_ELEMENTS.HostedPaymentRequest ?? []), ...URL_ELEMENTS],
  },
  params: {
    ...CARD_DATA_PARAMS,
    SignForMerchant: ['message'],
    SignWebhook: ['message'],
    // The merchant's webhook endpoint: the same URL validator as a session's WebhookUrl.
    SetWebhookEndpoint: ['endpointUrl'],
  },
};

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export type TextElements =
  { ok: true; params: unknown } | { ok: false; element: string; problem: TextProblem };

/** The parameters with every text element in NFC, or the first element the policy refuses. */
export function applyTextPolicy(operation: OperationName, params: unknown): TextElements {
  let problem: TextProblem | null = null;
  const walked = walkStringElements(operation, params, TEXT_POLICY_EXEMPT, (value) => {
    if (PRINTABLE_ASCII.test(value)) return value; // NFC already, nothing to refuse: the common case
    const normal = normalizeText(value);
    problem = textProblem(normal);
    return problem === null ? normal : STOP;
  });
  if (walked.stoppedAt !== null && problem !== null) return { ok: false, element: walked.stoppedAt, problem };
  return { ok: true, params: walked.params };
}
