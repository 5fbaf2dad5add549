/**
 * SMS through a webhook: `SMS_WEBHOOK_URL` receives a JSON POST `{"to": "+15551234567", "text": "…"}`
 * and answers 2xx once it has taken the message (an SMS provider's HTTP API, or a small relay in
 * front of one). Anything else, or no answer within 10 seconds, is a failed delivery.
 */
import type { NotificationMessage } from './message.ts';
import type { Transport } from './transport.ts';

const TIMEOUT_MS = 10_000;

export class SmsWebhookError extends Error {
  constructor(readonly status: number) {
    super(`The SMS webhook answered HTTP ${status}.`);
    this.name = 'SmsWebhookError';
  }
}

export function smsWebhookTransport(url: string): Transport {
  return {
    name: 'sms_webhook',
    async deliver(m: NotificationMessage): Promise<string> {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to: m.to, text: m.text }),
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await res.body?.cancel();
      if (!res.ok) throw new SmsWebhookError(res.status);
      return `sms:${res.status}`;
    },
  };
}
