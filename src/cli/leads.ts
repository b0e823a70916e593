/**
 * The office's commands on the lead store that `DATABASE_URL` names: `npm run -s leads -- <command>`.
 * `src/cli/usage.ts` says what each does; exit status 0 done, 1 failed, 2 wrong call.
 */
import { parseArgs } from 'node:util';
import { ConfigError, getConfig } from '../config.ts';
import { userInfo } from 'node:os';
import { personOf, purge, purgeCutoffs, SPAM_KEEP_DAYS } from '../leads/retention.ts';
import { createLeadStore } from '../store/index.ts';
import { backupSqliteFile, BackupError } from '../store/sqlite-backup.ts';
import { deleteOnRequest, formWords, previewDeletion } from '../office/deletion.ts';
import { exportLeads } from '../office/export.ts';
import { OutputFileError, writeOwnerOnly } from './output-file.ts';
import { spreadsheetTime } from '../office/local-time.ts';
import { ask, period, USAGE, UsageError, type Command } from './usage.ts';
import { companyTimeZone } from './time-zone.ts';
import { userCommand } from './users.ts';
import { plural } from '../lib/text.ts';

const say = (line: string) => process.stderr.write(`${line}\n`);

/** Who ran a command, for the audit trail: the system user, when the system knows one. */
function commandLineActor(): string {
  try {
    return `command line (${userInfo().username})`;
  } catch {
    return 'command line';
  }
}

const commands: Record<string, Command> = {
  async export(args, open) {
    const { values } = parseArgs({
      args,
      options: {
        format: { type: 'string', default: 'jsonl' },
        since: { type: 'string' },
        until: { type: 'string' },
        form: { type: 'string' },
        output: { type: 'string' },
        force: { type: 'boolean', default: false },
      },
    });
    if (values.format !== 'jsonl' && values.format !== 'csv') throw new UsageError(`--format must be jsonl or csv (got "${values.format}")`);
    if (values.form !== undefined && values.form !== 'quote' && values.form !== 'support')
      throw new UsageError(`--form must be quote or support (got "${values.form}")`);
    if (values.force && values.output === undefined) throw new UsageError('--force replaces the file named by --output, and needs it');
    const timeZone = companyTimeZone();
    const filter = { ...period(values, timeZone), form: values.form as 'quote' | 'support' | undefined };
    const store = await open();
    try {
      const format = values.format;
      const output = values.output;
      let count: number;
      if (output === undefined) {
        count = await exportLeads(store, process.stdout, format, filter, timeZone);
      } else {
        count = await writeOwnerOnly(output, values.force, (out) => exportLeads(store, out, format, filter, timeZone));
        process.stdout.write(`Wrote ${plural(count, 'lead')} to ${output}, readable by you only.\n`);
      }
      // The audit trail records exports from the command line as from the office's page.
      await store.record({ at: new Date(), actor: commandLineActor(), action: 'exported', detail: `${plural(count, 'lead')}, ${format}` });
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
    const timeZone = companyTimeZone();
    const store = await open();
    try {
      const dryRun = values['dry-run'];
      const preview = await previewDeletion({ inbox: store, records: store }, match);
      const what = kind === 'email' ? 'e-mail address' : 'phone number';
      const actor = commandLineActor();
      if (preview.leads.length === 0 && preview.removed.suspectedSpam === 0) {
        process.stdout.write(`No lead has this ${what}: check its spelling. Nothing ${dryRun ? 'would be' : 'was'} removed.\n`);
        if (!dryRun) {
          await deleteOnRequest({ records: store, audit: store }, match, actor);
          process.stdout.write('A deletion record was kept for 24 months, showing that the request was served and nothing was found.\n');
        }
        return;
      }
      if (preview.leads.length > 0) {
        process.stdout.write(`${dryRun ? 'Would remove' : 'Removing'} ${plural(preview.leads.length, 'lead')} with this ${what}:\n`);
        for (const lead of preview.leads)
          process.stdout.write(
            `  ${lead.reference}  ${spreadsheetTime(new Date(lead.receivedAt), timeZone)}  ${formWords(lead.formType)}  ${String(lead.fields.name)}\n`,
          );
      } else process.stdout.write(`No lead has this ${what}.\n`);
      if (preview.removed.suspectedSpam > 0)
        process.stdout.write(
          `${dryRun ? 'Would remove' : 'Removing'} ${plural(preview.removed.suspectedSpam, 'submission')} with this ${what} kept aside as suspected spam.\n`,
        );
      if (new Set(preview.leads.map((l) => String(l.fields.name).trim().toLowerCase())).size > 1)
        process.stdout.write(`These leads carry more than one name: check that they are all the same person's before removing them.\n`);
      if (dryRun) {
        process.stdout.write('Nothing was changed (--dry-run).\n');
      } else {
        const removed = await deleteOnRequest({ records: store, audit: store }, match, actor);
        process.stdout.write(
          `Removed ${[removed.leads > 0 && plural(removed.leads, 'lead'), removed.suspectedSpam > 0 && plural(removed.suspectedSpam, 'suspected spam submission')].filter(Boolean).join(' and ')}.\n`,
        );
        process.stdout.write("A deletion record was kept for 24 months: the time, the kind of identifier and the count, none of the person's details.\n");
        process.stdout.write('Backups made before now still hold these leads until they rotate out.\n');
      }
      const emailed = preview.leads.filter((l) => preview.removed.officeEmails.includes(l.id));
      if (emailed.length > 0) {
        process.stdout.write(
          `The office was e-mailed about ${plural(emailed.length, 'of these leads', 'of these leads')}: ${dryRun ? 'when deleting, also delete' : 'delete'} those messages from the office's mailbox too. Search it for their references:\n${emailed.map((l) => `  ${l.reference}\n`).join('')}`,
        );
      }
    } finally {
      await store.close();
    }
  },

  async purge(args, open) {
    const { values } = parseArgs({
      args,
      options: { 'older-than': { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, yes: { type: 'boolean', default: false } },
    });
    const given = values['older-than'];
    if (given !== undefined && !/^\d{1,5}$/.test(given)) throw new UsageError(`--older-than must be a whole number of days (got "${given}")`);
    const retention = getConfig().leadsRetentionDays;
    const days = given === undefined ? retention : Number(given);
    const cutoffs = purgeCutoffs(new Date(), days);
    const timeZone = companyTimeZone();
    const store = await open();
    try {
      let due = 0;
      for await (const _ of store.exportLeads({ until: cutoffs.leadsBefore })) due++;
      const before = `received before ${spreadsheetTime(cutoffs.leadsBefore, timeZone)} (${plural(days, 'day')} ago)`;
      if (values['dry-run']) {
        process.stdout.write(`Would remove ${plural(due, 'lead')} ${before}. Nothing was changed (--dry-run).\n`);
        return;
      }
      if (days < retention && due > 0 && !values.yes) {
        const question = `This removes ${plural(due, 'lead')} ${before}, sooner than the ${plural(retention, 'day')} the company keeps leads (LEADS_RETENTION_DAYS).`;
        if (!process.stdin.isTTY) throw new UsageError(`${question} Add --yes to do it without being asked.`);
        if ((await ask(`${question} Type yes to remove them: `)).trim().toLowerCase() !== 'yes') {
          process.stdout.write('Nothing was removed.\n');
          return;
        }
      }
      const removed = await purge(store, cutoffs);
      process.stdout.write(
        `Removed ${plural(removed.leads, 'lead')} ${before}, ${plural(removed.idempotencyKeys, 'idempotency record')} and ${plural(removed.fingerprints, 'duplicate fingerprint')} older than 24 hours, ${plural(removed.suspectedSpam, 'suspected spam submission')} older than ${SPAM_KEEP_DAYS} days, and ${plural(removed.deletionRecords, 'deletion record')} older than 24 months.\n`,
      );
    } finally {
      await store.close();
    }
  },

  user: userCommand,

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
    err instanceof ConfigError
      ? err.message
      : err instanceof BackupError || err instanceof OutputFileError
        ? `leads ${name}: ${err.message}`
        : `leads ${name} failed: ${(err as Error).message}`,
  );
  process.exit(1);
}
