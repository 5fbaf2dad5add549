/**
 * The notifier (DESIGN.md "Parts", §9): the one module that delivers e-mail and SMS.
 *
 *   e-mail → SMTP when `SMTP_URL` is set, else the dev outbox in the database;
 *   SMS    → a JSON POST to `SMS_WEBHOOK_URL` when set, else the dev outbox.
 *
 * Every message is checked first (message.ts): one holding a card number is refused, never sent.
 *
 * `sendLater` runs a send after the caller has answered, so an answer takes as long whether or not a
 * message went out (ForgotPassword, SendVerificationCode: no enumeration by timing, OTP-7).
 * `flush()` waits for those sends (tests, shutdown).
 */
import type { Config } from '../config.ts';
import type { Queryable } from '../db/database.ts';
import { checkMessage, type NotificationMessage } from './message.ts';
import { outboxTransport } from './outbox.ts';
import { smsWebhookTransport } from './sms-webhook.ts';
import { smtpTransport } from './smtp-transport.ts';
import type { Transport, TransportName } from './transport.ts';

export type { Channel, NotificationMessage, Purpose } from './message.ts';
export { MessageRefusedError } from './message.ts';

export interface Delivery {
  transport: TransportName;
  /** The outbox row, the SMTP Message-ID, or the webhook's status: for the log. */
  id: string;
}

export class Notifier {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly transports: { email: Transport; sms: Transport }) {}

  /** Where each channel goes, for the start-up log (never the URLs: SMTP_URL holds a password). */
  describe(): { email: TransportName; sms: TransportName } {
    return { email: this.transports.email.name, sms: this.transports.sms.name };
  }

  /**
   * Checks and delivers one message; rejects with MessageRefusedError or the transport's error.
   * `within`: a transaction of the caller's; a message for the dev outbox is written in it, so it is
   * delivered exactly when the caller's transaction commits (receipt-queue.ts). SMTP and the SMS
   * webhook are outside any transaction.
   */
  async send(message: NotificationMessage, { within }: { within?: Queryable } = {}): Promise<Delivery> {
    const checked = checkMessage(message);
    const transport = this.transports[checked.channel];
    const via = within && transport.name === 'outbox' ? outboxTransport(within) : transport;
    return { transport: transport.name, id: await via.deliver(checked) };
  }

  /**
   * Builds and sends a message after the current call has answered. `build` may do the work that
   * only happens when a message goes out (create a token); it resolves to null to send nothing.
   * Failures go to `onError`, never to the caller.
   */
  sendLater(
    build: () => Promise<NotificationMessage | null>,
    onError: (err: unknown) => void,
    onSent?: (delivery: Delivery) => void,
  ): void {
    const task = new Promise<void>((resolve) => setImmediate(resolve))
      .then(build)
      .then(async (message) => {
        if (!message) return;
        const delivery = await this.send(message);
        onSent?.(delivery);
      })
      .catch(onError)
      .finally(() => {
        this.pending.delete(task);
      });
    this.pending.add(task);
  }

  /** Resolves when every `sendLater` started so far (and any they start) has finished. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.transports.email.close?.();
    if (this.transports.sms !== this.transports.email) await this.transports.sms.close?.();
  }
}

export function createNotifier(
  config: Pick<Config, 'smtpUrl' | 'smtpFrom' | 'smsWebhookUrl'>,
  db: Queryable,
): Notifier {
  const outbox = outboxTransport(db);
  return new Notifier({
    email: config.smtpUrl ? smtpTransport(config.smtpUrl, config.smtpFrom) : outbox,
    sms: config.smsWebhookUrl ? smsWebhookTransport(config.smsWebhookUrl) : outbox,
  });
}
