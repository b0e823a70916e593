/** Whether the system is working, in the office's words: the e-mail about each new lead, and the backups. */
import type { OutboxEntry, OutboxStatus } from '../leads/store.ts';

/** What a failed send's summary (`sendFailure` in `src/mail/smtp.ts`) means, for people. */
export function mailErrorWords(summary: string | null): string {
  const s = summary ?? '';
  if (/EAUTH|\b535\b|\b534\b/.test(s)) return 'the mail server refused the service’s user name or password (SMTP_URL)';
  if (/ETIMEDOUT|timeout/i.test(s)) return 'the mail server did not answer in time';
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ESOCKET|ECONNECTION|EDNS/.test(s)) return 'the mail server could not be reached';
  const code = /\b([45]\d\d)\b/.exec(s)?.[1];
  if (code?.startsWith('4')) return `the mail server asked to try again later (code ${code})`;
  if (code) return `the mail server refused the message (code ${code})`;
  return `the sending failed (${s || 'no reason given'})`;
}

export type MailHealth =
  { kind: 'off' } | { kind: 'ok' } | { kind: 'waiting'; waiting: number; since: Date } | { kind: 'failing'; waiting: number; since: Date; lastError: string };

/** How the office's e-mail stands, from the outbox. */
export function mailHealth(enabled: boolean, status: OutboxStatus, waiting: OutboxEntry[]): MailHealth {
  if (!enabled) return { kind: 'off' };
  if (status.waiting === 0) return { kind: 'ok' };
  const failing = waiting.filter((e) => e.attempts > 0);
  if (failing.length === 0) return { kind: 'waiting', waiting: status.waiting, since: status.oldestWaiting! };
  const since = failing.reduce((a, e) => (e.receivedAt < a ? e.receivedAt : a), failing[0]!.receivedAt);
  const latest = failing.reduce((a, e) => (e.nextAttemptAt > a.nextAttemptAt ? e : a), failing[0]!);
  return { kind: 'failing', waiting: status.waiting, since, lastError: mailErrorWords(latest.lastError) };
}
