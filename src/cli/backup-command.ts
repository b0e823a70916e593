/** `leads backup <file>`: a checked copy of the SQLite store, while the server runs (PostgreSQL has its own tools). */
import { parseArgs } from 'node:util';
import { getConfig } from '../config/config.ts';
import { plural } from '../lib/text.ts';
import { backupSqliteFile } from '../store/sqlite-backup.ts';
import { UsageError, type Command } from './usage.ts';

export const backupCommand: Command = async (args) => {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new UsageError('backup needs the file to write, such as /var/backups/lead-intake/leads-2026-11-22.sqlite');
  const { database } = getConfig();
  if (database.kind !== 'sqlite') {
    throw new UsageError(
      'backup copies the embedded SQLite store; DATABASE_URL names PostgreSQL, which is backed up with its own tools: ' +
        'pg_dump for a logical copy (pg_dump --format=custom), or base backups (pg_basebackup) with WAL archiving for ' +
        'point-in-time recovery',
    );
  }
  const report = await backupSqliteFile(database.path, positionals[0]!);
  process.stdout.write(
    `Backed up ${plural(report.leads, 'lead')} to ${report.path} (${(report.bytes / 1024 / 1024).toFixed(1)} MiB), checked with PRAGMA integrity_check.\n`,
  );
};
