/** How the operator commands are called, and how their arguments are read. */
import { parseIsoDate } from '../lib/time.ts';

/** How the operator commands are called; a wrong call prints this and exits with 2. */
export const USAGE = `usage: npm run leads -- <command> [options]

  export [--format jsonl|csv] [--since <date-time>] [--until <date-time>] [--form quote|support]
      Print the stored leads, oldest first: one JSON object per line (jsonl, the default), or
      CSV with a header row, for a spreadsheet. --since is inclusive, --until exclusive; both
      are ISO 8601 dates or date-times, such as 2026-11-01 or 2026-11-01T09:00:00Z.

  delete (--email <address> | --phone <number>) [--dry-run]
      Remove every lead of one person (matched on the normalised e-mail or phone), with their
      idempotency records and duplicate fingerprints, and keep a deletion record without their
      details. --dry-run only counts.

  purge [--older-than <days>]
      Remove the leads older than LEADS_RETENTION_DAYS (or <days>), idempotency records and
      fingerprints older than 24 hours, and deletion records older than 24 months.

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

/** A wrong call: its message is printed with the usage, and the exit status is 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** An ISO 8601 date or date-time with a zone, as a `Date`; a `UsageError` naming `option` otherwise. */
export function parseDate(option: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = parseIsoDate(value);
  if (!date) throw new UsageError(`${option} must be an ISO 8601 date or date-time with a zone, such as 2026-11-01 or 2026-11-01T09:00:00Z (got "${value}")`);
  return date;
}
