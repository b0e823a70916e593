/**
 * Scheduled backups of the SQLite store (`BACKUP_DIR`): one at start-up, then every
 * `BACKUP_INTERVAL_HOURS`, each a whole, checked file named by its UTC time; the newest
 * `BACKUP_KEEP` are kept and older ones deleted. The copy runs in a worker thread. A failure is
 * logged and tried again 15 minutes later; it never stops the server.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { BackupSettings } from '../config/config.ts';
import type { BackupReport } from '../store/sqlite-backup.ts';
import { repeat, type Repeating } from './repeat.ts';

const HOUR_MS = 60 * 60 * 1000;
const RETRY_MS = 15 * 60 * 1000;

/** The scheduled backups' names: `leads-20261122T030000Z.sqlite`, which sort by time. */
export const BACKUP_FILE = /^leads-\d{8}T\d{6}Z\.sqlite$/;
const PARTIAL_FILE = /^\.leads-\d{8}T\d{6}Z\.sqlite\.[0-9a-f]+\.partial(-journal|-wal|-shm)?$/;

export function backupFileName(at: Date): string {
  return `leads-${at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '')}.sqlite`;
}

/** Deletes all but the newest `keep` scheduled backups in `dir`, and any partial file a stopped backup left; returns the names deleted. */
export function rotateBackups(dir: string, keep: number): string[] {
  const names = readdirSync(dir);
  const old = names
    .filter((n) => BACKUP_FILE.test(n))
    .sort()
    .reverse()
    .slice(keep);
  const partial = names.filter((n) => PARTIAL_FILE.test(n));
  for (const name of [...old, ...partial]) rmSync(join(dir, name), { force: true });
  return old;
}

/** Makes a backup of the store at `source` in a worker thread running `workerPath`. */
export function backupInWorker(workerPath: string, source: string): (destination: string) => Promise<BackupReport> {
  return (destination) =>
    new Promise((resolve, reject) => {
      const worker = new Worker(workerPath, { workerData: { source, destination } });
      worker.once('message', (m: { report?: BackupReport; error?: string }) => (m.report ? resolve(m.report) : reject(new Error(m.error))));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the backup worker stopped with exit code ${code}`)));
    });
}

export function startBackups(
  deps: { settings: BackupSettings; logger: Logger; backup: (destination: string) => Promise<BackupReport> },
  timing = { retryMs: RETRY_MS },
): Repeating {
  const { settings, logger } = deps;
  return repeat(
    async () => {
      const started = Date.now();
      mkdirSync(settings.dir, { recursive: true });
      const report = await deps.backup(join(settings.dir, backupFileName(new Date())));
      const removed = rotateBackups(settings.dir, settings.keep);
      logger.info(
        { path: report.path, bytes: report.bytes, leads: report.leads, durationMs: Date.now() - started, removed: removed.length, keep: settings.keep },
        'backup done',
      );
      return settings.intervalHours * HOUR_MS;
    },
    (err) => {
      logger.error({ dir: settings.dir, err, retryInMs: timing.retryMs }, 'backup failed; it will be tried again');
      return timing.retryMs;
    },
  );
}

/** When the newest scheduled backup in `dir` was made (from its name), or `undefined` when there is none. */
export function lastBackup(dir: string): Date | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  const newest = names
    .filter((n) => BACKUP_FILE.test(n))
    .sort()
    .at(-1);
  const m = newest && /^leads-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(newest);
  return m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) : undefined;
}
