/**
 * The office's commands on the lead store that `DATABASE_URL` names: `npm run leads -- <command>`.
 * `src/cli/usage.ts` says what each does; exit status 0 done, 1 failed, 2 wrong call.
 */
import { parseArgs } from 'node:util';
import { ConfigError, getConfig } from '../config.ts';
import { deletePerson, personOf, purge, purgeCutoffs } from '../leads/retention.ts';
import type { LeadStore } from '../leads/store.ts';
import { createLeadStore } from '../store/index.ts';
import { backupSqliteFile, BackupError } from '../store/sqlite-backup.ts';
import { exportLeads } from './export.ts';
import { parseDate, USAGE, UsageError } from './usage.ts';
import { plural } from '../lib/text.ts';

type Command = (args: string[], store: () => Promise<LeadStore>) => Promise<void>;

const say = (line: string) => process.stderr.write(`${line}\n`);

const commands: Record<string, Command> = {
  async export(args, open) {
    const { values } = parseArgs({
      args,
      options: { format: { type: 'string', default: 'jsonl' }, since: { type: 'string' }, until: { type: 'string' }, form: { type: 'string' } },
    });
    if (values.format !== 'jsonl' && values.format !== 'csv') throw new UsageError(`--format must be jsonl or csv (got "${values.format}")`);
    if (values.form !== undefined && values.form !== 'quote' && values.form !== 'support')
      throw new UsageError(`--form must be quote or support (got "${values.form}")`);
    const filter = {
      since: parseDate('--since', values.since),
      until: parseDate('--until', values.until),
      form: values.form as 'quote' | 'support' | undefined,
    };
    const store = await open();
    try {
      await exportLeads(store, process.stdout, values.format, filter);
    } finally {
      await store.close();
    }
  },

  async delete(args, open) {
    const { values } = parseArgs({ args, options: { email: { type: 'string' }, phone: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } } });
    if ((values.email === undefined) === (values.phone === undefined))
      throw new UsageError('delete needs exactly one of --email <address> and --phone <number>');
    const kind = values.email !== undefined ? 'email' : 'phone';
    const match = personOf(kind, (values.email ?? values.phone)!);
    if (!match)
      throw new UsageError(kind === 'email' ? '--email must be an e-mail address' : '--phone must be a 10-digit U.S. phone number, such as (503) 555-0142');
    const store = await open();
    try {
      const dryRun = values['dry-run'];
      const removed = await deletePerson(store, match, { dryRun });
      const what = `${plural(removed.leads, 'lead')} of this person, with ${plural(removed.idempotencyKeys, 'idempotency record')} and ${plural(removed.fingerprints, 'duplicate fingerprint')}`;
      if (dryRun) {
        process.stdout.write(`Would remove ${what}. Nothing was changed (--dry-run).\n`);
      } else {
        process.stdout.write(`Removed ${what}.\n`);
        process.stdout.write(
          "A deletion record was kept for 24 months: a keyed hash of the identifier, the time and the count, none of the person's details.\n",
        );
        process.stdout.write('Backups made before now still hold these leads until they rotate out.\n');
      }
      if (removed.officeEmails.length > 0) {
        process.stdout.write(
          `The office was e-mailed about ${plural(removed.officeEmails.length, 'of these leads', 'of these leads')}: ${dryRun ? 'when deleting, also delete' : 'delete'} those messages from the office's mailbox too. Search it for their references:\n${removed.officeEmails.map((id) => `  ${id}\n`).join('')}`,
        );
      }
    } finally {
      await store.close();
    }
  },

  async purge(args, open) {
    const { values } = parseArgs({ args, options: { 'older-than': { type: 'string' } } });
    const given = values['older-than'];
    if (given !== undefined && !/^\d{1,5}$/.test(given)) throw new UsageError(`--older-than must be a whole number of days (got "${given}")`);
    const days = given === undefined ? getConfig().leadsRetentionDays : Number(given);
    const store = await open();
    try {
      const removed = await purge(store, purgeCutoffs(new Date(), days));
      process.stdout.write(
        `Removed ${plural(removed.leads, 'lead')} older than ${plural(days, 'day')}, ${plural(removed.idempotencyKeys, 'idempotency record')} and ${plural(removed.fingerprints, 'duplicate fingerprint')} older than 24 hours, and ${plural(removed.deletionRecords, 'deletion record')} older than 24 months.\n`,
      );
    } finally {
      await store.close();
    }
  },

  async backup(args) {
    const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
    if (positionals.length !== 1) throw new UsageError('backup needs the file to write, such as /var/backups/lead-intake/leads-2026-11-22.sqlite');
    const { database } = getConfig();
    if (database.kind !== 'sqlite') {
      throw new UsageError(
        'backup copies the embedded SQLite store; DATABASE_URL names PostgreSQL, which is backed up with its own tools: pg_dump for a logical copy (pg_dump --format=custom), or base backups (pg_basebackup) with WAL archiving for point-in-time recovery',
      );
    }
    const report = await backupSqliteFile(database.path, positionals[0]!);
    process.stdout.write(
      `Backed up ${plural(report.leads, 'lead')} to ${report.path} (${(report.bytes / 1024 / 1024).toFixed(1)} MiB), checked with PRAGMA integrity_check.\n`,
    );
  },

  async outbox(args, open) {
    const { values } = parseArgs({ args, options: { limit: { type: 'string', default: '100' } } });
    if (!/^\d{1,6}$/.test(values.limit) || Number(values.limit) < 1) throw new UsageError(`--limit must be a whole number, at least 1 (got "${values.limit}")`);
    const store = await open();
    try {
      const status = await store.outboxStatus();
      const entries = await store.waitingNotifications(Number(values.limit));
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
  },
};

// A reader that stops early (`leads export | head`) is normal: stop quietly, as `cat` does.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const [name, ...args] = process.argv.slice(2);
const command = name === undefined ? undefined : commands[name];
try {
  if (!command) throw new UsageError(name === undefined ? 'a command is needed' : `unknown command: ${name}`);
  await command(args, () => createLeadStore(getConfig()));
} catch (err) {
  if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    say(`${(err as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  say(
    err instanceof ConfigError ? err.message : err instanceof BackupError ? `leads ${name}: ${err.message}` : `leads ${name} failed: ${(err as Error).message}`,
  );
  process.exit(1);
}
