/** `leads outbox`: the office's e-mails not sent yet, and why. */
import { parseArgs } from 'node:util';
import { getConfig } from '../config/config.ts';
import { plural } from '../lib/text.ts';
import { UsageError, type Command } from './usage.ts';

export const outboxCommand: Command = async (args, open) => {
  const { values } = parseArgs({ args, options: { limit: { type: 'string', default: '100' } } });
  if (!/^\d{1,6}$/.test(values.limit) || Number(values.limit) < 1) throw new UsageError(`--limit must be a whole number, at least 1 (got "${values.limit}")`);
  const store = await open();
  try {
    const status = await store.outbox.outboxStatus();
    const entries = await store.outbox.waitingNotifications(Number(values.limit));
    if (!getConfig().mail) process.stdout.write('Office e-mail is off: SMTP_URL is not set, so no notification is written or sent.\n');
    if (status.waiting === 0) {
      process.stdout.write('Nothing is waiting: every notification of a lead has been sent.\n');
      return;
    }
    const age = Math.max(0, Math.round((Date.now() - status.oldestWaiting!.getTime()) / 60_000));
    process.stdout.write(
      `${plural(status.waiting, 'notification')} waiting, ${status.failing} of them failed at least once; the oldest is ${plural(age, 'minute')} old.\n\n`,
    );
    const rows = [
      ['lead', 'form', 'received', 'attempts', 'next attempt', 'last error'],
      ...entries.map((e) => [e.leadId, e.formType, e.receivedAt.toISOString(), String(e.attempts), e.nextAttemptAt.toISOString(), e.lastError ?? '']),
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const row of rows)
      process.stdout.write(
        `${row
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd()}\n`,
      );
    if (entries.length < status.waiting) process.stdout.write(`… and ${status.waiting - entries.length} more (--limit).\n`);
  } finally {
    await store.close();
  }
};
