/**
 * E-mail through SMTP with nodemailer (STYLE.md §12: the field's library, not a hand-written
 * client). `SMTP_URL` is nodemailer's connection URL: `smtp://user:pass@host:587` (STARTTLS when the
 * server offers it), `smtps://user:pass@host:465` (TLS from the start); options such as
 * `?requireTLS=true` go in its query string. Certificates are always verified (PCI-421-2).
 */
import nodemailer from 'nodemailer';
import type { NotificationMessage } from './message.ts';
import type { Transport } from './transport.ts';

/** Fail fast: a request that sends a message must not hang on an unreachable server. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function smtpTransport(url: string, from: string): Transport {
  const transporter = nodemailer.createTransport({ url, ...TIMEOUTS });
  return {
    name: 'smtp',
    async deliver(m: NotificationMessage): Promise<string> {
      const info = await transporter.sendMail({
        from,
        to: m.to,
        subject: m.subject ?? '',
        text: m.text,
        ...(m.html !== undefined ? { html: m.html } : {}),
        headers: { 'X-Payframe-Purpose': m.purpose },
      });
      return String(info.messageId);
    },
    async close() {
      transporter.close();
    },
  };
}
