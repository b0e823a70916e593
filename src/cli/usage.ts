/** How the office's commands are called, and how their arguments and answers are read. */
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { CommandRoles } from '../roles/index.ts';
import { nextLocalDay, parseLocalDate } from '../office/local-time.ts';
import { DELETION_RECORD_TEXT, SPAM_KEEP_DAYS } from '../leads/retention.ts';
import { REPLAY_WINDOW_HOURS } from '../leads/store.ts';

/** The store as a command opens it (only when it needs one): its roles, and how to close it. */
export type OpenStore = () => Promise<CommandRoles & { close(): Promise<void> }>;

/** A command: its arguments, and how to open the store. */
export type Command = (args: string[], open: OpenStore) => Promise<void>;

/** How the office's commands are called; a wrong call prints this and exits with 2. */
export const USAGE = `usage: npm run -s leads -- <command> [options]
(-s keeps npm's own lines out of what the command writes, such as an exported file; -- hands
the options to the command rather than to npm.)

  export [--format jsonl|csv] [--since <date>] [--until <date>] [--form quote|support]
         [--output <file> [--force]]
      Print the stored leads, oldest first: one JSON object per line (jsonl, the default), or
      CSV with a header row, for a spreadsheet, its times in the company's time zone. Dates are
      days in the company's time zone, written 11/01/2026 or 2026-11-01, both days included;
      an ISO 8601 date-time with a zone (2026-11-01T09:00:00Z) is taken as it says.
      --output writes them to <file> instead, readable by you only (a shell's > makes a file
      with the umask's mode, often readable by every user of the machine); an existing <file>
      is refused unless --force.
      Example: npm run -s leads -- export --format csv --since 11/01/2026 --output leads.csv

  delete (--email <address> | --phone <number>) [--dry-run]
      List every lead of one person (matched on the normalised e-mail or phone: name, form,
      date), then remove them with their idempotency records, duplicate fingerprints and any
      submission kept as suspected spam, and keep a deletion record without their details.
      --dry-run only lists. Says so when nothing matches.

  purge [--older-than <days>] [--dry-run] [--yes]
      Remove the leads older than LEADS_RETENTION_DAYS (or <days>), idempotency records and
      fingerprints older than ${REPLAY_WINDOW_HOURS} hours, suspected spam older than ${SPAM_KEEP_DAYS} days, and
      deletion records older than ${DELETION_RECORD_TEXT}. --dry-run only counts. Removing leads sooner than
      LEADS_RETENTION_DAYS asks first (or needs --yes when no one can answer).

  user add <e-mail> [--role staff|owner] | user remove <e-mail> | user list
      The office page's accounts. add asks for the password (at least 12 characters), or reads
      it from standard input when that is not a terminal; on an existing account it sets a new
      password and signs it out everywhere. --role: staff work the leads (search, status, spam);
      an owner also exports, deletes people on request and reads the audit trail. A new account
      is an owner unless --role staff; an existing one keeps its role unless --role is given.
      remove deletes the account and ends its sessions. list shows each account's role.

  backup <file>
      Write a consistent copy of the SQLite store to <file> while the server keeps running,
      check it with PRAGMA integrity_check, and only then put it under that name. PostgreSQL
      is backed up with its own tools (pg_dump, base backups): exit status 2.

  outbox [--limit <n>]
      List the office's e-mail notifications not yet sent (at most 100, or <n>), oldest first:
      the lead's reference, its form, when it came, the attempts made, the next attempt and
      what the last one came to. No customer details.

Every command works on the store DATABASE_URL names. Exit status: 0 done, 1 failed, 2 wrong call.
`;

/**
 * A wrong call: its message is printed with the usage, and the exit status is 2. A wrong answer to a
 * question (a password too short) is said in its one line alone (`usage: false`).
 */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly usage: boolean;
  constructor(message: string, options: { usage?: boolean } = {}) {
    super(message);
    this.usage = options.usage ?? true;
  }
}

/** A date as the office writes it, in `timeZone`; a `UsageError` naming `option` otherwise. */
function localDate(option: string, value: string | undefined, timeZone: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = parseLocalDate(value, timeZone);
  if (!date) throw new UsageError(`${option} must be a date such as 11/01/2026 or 2026-11-01, or an ISO 8601 date-time with a zone (got "${value}")`);
  return date;
}

/** `--since` and `--until` as a period: a day given as `--until` is included whole. */
export function period(values: { since?: string; until?: string }, timeZone: string): { since?: Date; until?: Date } {
  const since = localDate('--since', values.since, timeZone);
  const until = localDate('--until', values.until, timeZone);
  const untilDay = values.until !== undefined && !values.until.includes('T');
  return { since, until: until && untilDay ? nextLocalDay(until, timeZone) : until };
}

/** Asks a question on the terminal; with `hidden`, what is typed is not shown (a password). */
export async function ask(question: string, options: { hidden?: boolean } = {}): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  try {
    const answer = rl.question(question);
    muted = options.hidden === true;
    return await answer;
  } finally {
    muted = false;
    rl.close();
    if (options.hidden) process.stderr.write('\n');
  }
}
