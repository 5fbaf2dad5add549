/**
 * What the notifier sends, and the checks every message passes before any transport sees it.
 *
 * No card number ever leaves in an e-mail or SMS (DESIGN.md §5; security-requirements.md PCI-422-1,
 * OTP-13, attack row 31): a message whose subject, text or HTML holds a card number, however it
 * is spelled, is refused with `MessageRefusedError`, never masked and sent. The detector is
 * shared/card/card-number-in-text.ts, the log scrubber's, the checkout API's and the gateway's, so
 * they all agree on what a card number is. Masked
 * forms ("•••• 4242", "411111******1111") pass.
 */
import { containsCardNumber } from '../../shared/card/card-number-in-text.ts';

export type Channel = 'email' | 'sms';

/** Why a message is sent; kept with it in the outbox and as an SMTP header. */
export type Purpose = 'otp' | 'password_reset' | 'invitation' | 'receipt' | 'invoice' | 'new_device' | 'test';

export interface NotificationMessage {
  channel: Channel;
  /** An e-mail address, or a phone number (digits, an optional leading +). */
  to: string;
  /** E-mail only. */
  subject?: string;
  text: string;
  /** E-mail only: an HTML alternative of `text`. */
  html?: string;
  purpose: Purpose;
}

/** A message that must not be sent (a card number in it, or a malformed address). */
export class MessageRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MessageRefusedError';
  }
}

const PURPOSES: ReadonlySet<string> = new Set<Purpose>([
  'otp',
  'password_reset',
  'invitation',
  'receipt',
  'invoice',
  'new_device',
  'test',
]);
// Deliberately plain: one @, no spaces, no characters that could start another header or address.
const EMAIL = /^[^\s@<>()[\],;:"\\]{1,64}@[^\s@<>()[\],;:"\\]+\.[^\s@<>()[\],;:"\\]+$/;
const PHONE = /^\+?[0-9]{7,15}$/;
const MAX_TEXT = 100_000;

/** Checks a message and returns it normalised (trimmed address); throws MessageRefusedError. */
export function checkMessage(message: NotificationMessage): NotificationMessage {
  const { channel, purpose, text } = message;
  if (channel !== 'email' && channel !== 'sms') throw new MessageRefusedError(`Unknown channel ${channel}.`);
  if (!PURPOSES.has(purpose)) throw new MessageRefusedError(`Unknown purpose ${purpose}.`);
  const to = message.to.trim();
  if (channel === 'email' ? !(to.length <= 254 && EMAIL.test(to)) : !PHONE.test(to.replace(/[\s-]/g, ''))) {
    throw new MessageRefusedError(
      `The ${channel === 'email' ? 'e-mail address' : 'phone number'} is not valid.`,
    );
  }
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_TEXT) {
    throw new MessageRefusedError('The message text must be 1 to 100000 characters.');
  }
  if (message.subject !== undefined && /[\r\n]/.test(message.subject)) {
    throw new MessageRefusedError('The subject must be one line.');
  }
  for (const [part, value] of [
    ['subject', message.subject],
    ['text', text],
    ['html', message.html],
  ] as const) {
    // The error names the part, never the number.
    if (value !== undefined && containsCardNumber(value)) {
      throw new MessageRefusedError(
        `Refused to send a ${purpose} message: its ${part} contains a card number.`,
      );
    }
  }
  return {
    ...message,
    to: channel === 'sms' ? to.replace(/[\s-]/g, '') : to,
  };
}
