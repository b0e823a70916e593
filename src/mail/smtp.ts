/**
 * The office's mail server, through Nodemailer: one pooled SMTP connection, bounded waits, and
 * failures summarised without personal data or credentials (an error code, the server's reply
 * code and the command it answered; never the server's reply text, which may quote addresses).
 */
import { createTransport } from 'nodemailer';
import type { SmtpServer } from '../config/config.ts';
import type { OfficeMessage } from './office-message.ts';

/** Sends the office's messages; resolves once the mail server has accepted one. */
export interface Mailer {
  send(message: OfficeMessage, signal: AbortSignal): Promise<void>;
  close(): void;
}

/** A mailer on the SMTP server `SMTP_URL` names. */
export function smtpMailer(smtp: SmtpServer): Mailer {
  const transport = createTransport({
    pool: true,
    maxConnections: 1,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.requireTls,
    ...(smtp.auth && { auth: { user: smtp.auth.user, pass: smtp.auth.pass } }),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    logger: false,
    debug: false,
  });
  return {
    async send(message, signal) {
      await transport.sendMail({ ...message, signal });
    },
    close: () => transport.close(),
  };
}

/** What a failed send came to, for the log and the outbox: `ESOCKET ECONNREFUSED`, `EENVELOPE 550 RCPT TO`. */
export function sendFailure(err: unknown): string {
  const e = (err ?? {}) as { code?: unknown; responseCode?: unknown; command?: unknown; cause?: { code?: unknown } };
  const word = (v: unknown) =>
    typeof v === 'string' || typeof v === 'number'
      ? String(v)
          .replace(/[^\w .-]/g, '')
          .slice(0, 40)
      : undefined;
  const parts = [word(e.code), word(e.cause?.code), word(e.responseCode), word(e.command)].filter((p): p is string => Boolean(p));
  return parts.length > 0 ? [...new Set(parts)].join(' ') : err instanceof Error ? err.name : 'unknown failure';
}
