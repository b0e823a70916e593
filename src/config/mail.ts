/** The office's e-mail settings (`SMTP_URL`, `OFFICE_EMAIL`, `MAIL_FROM`), read by the configuration (`config.ts`). */
import { z } from 'zod';

/** An e-mail address as the office's mail settings take it. */
const mailAddress = z.email();

/** The SMTP server the office's e-mail goes through, as `SMTP_URL` names it. */
export interface SmtpServer {
  readonly host: string;
  readonly port: number;
  /** `smtps://`: TLS from the first byte. `smtp://` upgrades with STARTTLS when the server offers it. */
  readonly secure: boolean;
  /** Credentials are sent only over TLS, unless the server is on this machine. */
  readonly requireTls: boolean;
  readonly auth: { readonly user: string; readonly pass: string } | undefined;
}

/** The office's e-mail about each new lead; absent when `SMTP_URL` is not set. */
export interface MailConfig {
  readonly smtp: SmtpServer;
  /** The recipients (`OFFICE_EMAIL`, one or more). */
  readonly office: readonly string[];
  /** The sender (`MAIL_FROM`): an address, with a display name if one was given. */
  readonly from: { readonly name: string; readonly address: string };
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
const SMTP_URL_FORM = 'must be smtp://[user:password@]host[:port] or smtps://… (user and password percent-encoded)';

/** Reads the three mail variables into a `MailConfig`, or names what is wrong without repeating a value. */
export function officeMail(
  env: { SMTP_URL?: string | undefined; OFFICE_EMAIL?: string | undefined; MAIL_FROM?: string | undefined },
  problems: string[],
): MailConfig | undefined {
  if (!env.SMTP_URL) {
    for (const name of ['OFFICE_EMAIL', 'MAIL_FROM'] as const) {
      if (env[name]) problems.push(`${name}: is set, but SMTP_URL is not: no e-mail would be sent (set SMTP_URL, or unset ${name})`);
    }
    return undefined;
  }
  let smtp: SmtpServer | undefined;
  try {
    const url = new URL(env.SMTP_URL);
    const secure = url.protocol === 'smtps:';
    const port = url.port === '' ? (secure ? 465 : 587) : Number(url.port);
    if (!['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname || port === 0 || !['', '/'].includes(url.pathname) || url.search || url.hash)
      throw new Error();
    const auth = url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined;
    smtp = {
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port,
      secure,
      requireTls: auth !== undefined && !secure && !LOOPBACK_HOSTS.test(url.hostname),
      auth,
    };
  } catch {
    problems.push(`SMTP_URL: ${SMTP_URL_FORM}`);
  }
  const office = (env.OFFICE_EMAIL ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (office.length === 0) problems.push('OFFICE_EMAIL: is needed with SMTP_URL: the address (or comma-separated addresses) the office reads');
  else if (!office.every((a) => mailAddress.safeParse(a).success)) problems.push('OFFICE_EMAIL: must be one or more e-mail addresses, separated by commas');
  const sender = /^(?:(.*?)\s*<([^<>]+)>|([^<>\s]+))$/.exec((env.MAIL_FROM ?? '').trim());
  const from = sender ? { name: (sender[1] ?? '').replace(/^"(.*)"$/, '$1').trim(), address: (sender[2] ?? sender[3])!.trim() } : undefined;
  if (!env.MAIL_FROM)
    problems.push('MAIL_FROM: is needed with SMTP_URL: the sender of the office\'s e-mail, such as "Lead intake <leads@example-cleaning.com>"');
  else if (!from || !mailAddress.safeParse(from.address).success || /[\u0000-\u001f\u007f]/.test(from.name))
    problems.push('MAIL_FROM: must be an e-mail address, or a name and an address such as "Lead intake <leads@example-cleaning.com>"');
  if (!smtp || !from || problems.length > 0) return undefined;
  return Object.freeze({
    smtp: Object.freeze({ ...smtp, auth: smtp.auth && Object.freeze(smtp.auth) }),
    office: Object.freeze(office),
    from: Object.freeze(from),
  });
}
