/** One way of delivering a checked message: the dev outbox, SMTP, or an SMS webhook. */
import type { NotificationMessage } from './message.ts';

export type TransportName = 'outbox' | 'smtp' | 'sms_webhook';

export interface Transport {
  readonly name: TransportName;
  /** Delivers the message (already checked); resolves to an id for the log, rejects on failure. */
  deliver(message: NotificationMessage): Promise<string>;
  close?(): Promise<void>;
}
