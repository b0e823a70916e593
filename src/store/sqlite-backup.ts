/**
 * A backup of the SQLite store while the server keeps taking leads: a consistent copy through a
 * connection of its own, checked, made self-contained, and put in place atomically. The office's
 * `backup` command and the server's scheduled backups (in a worker thread) both call it.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, closeSync, constants, existsSync, fsyncSync, openSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { plural } from '../lib/text.ts';

/** What a backup wrote. */
export interface BackupReport {
  path: string;
  bytes: number;
  leads: number;
}

/** A backup that could not be made; the message says why, for the operator. Nothing was left under the final name. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** The largest number of pages `backup()` takes per step: all of them, in one step. */
const ALL_PAGES = 2 ** 31 - 1;

const code = (err: unknown) => (err as { code?: string }).code ?? (err as Error).message;

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies the SQLite store at `source` to `destination`. The copy is made in one step under one read
 * transaction of a connection of its own: a snapshot of every lead committed before it began, while
 * writers go on (WAL); a copy in small steps would start over whenever the server commits. It is
 * written beside the destination under a temporary name, switched to a rollback journal (one file,
 * nothing beside it), checked with `PRAGMA integrity_check`, flushed to disk, and only then renamed
 * to `destination`, so a file under that name is always a whole, checked backup.
 */
export async function backupSqliteFile(source: string, destination: string): Promise<BackupReport> {
  const dir = dirname(destination);
  if (!existsSync(source)) throw new BackupError(`there is no SQLite store at ${source}`);
  try {
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new BackupError(`cannot write the backup into ${dir} (${code(err)})`, { cause: err });
  }
  const clash = storeFileAt(source, destination);
  if (clash) {
    throw new BackupError(
      `${destination} is the store's own ${clash}: a backup written there would destroy the store it copies. Nothing ` +
        `was written. Name a file in another place, such as a backups folder.`,
    );
  }
  const partial = join(dir, `.${basename(destination)}.${randomBytes(4).toString('hex')}.partial`);
  const removePartial = () => {
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${partial}${suffix}`, { force: true });
  };
  try {
    // Owner-only from its first byte: it holds every customer's details while it is written too.
    // SQLite gives the journal it makes beside it the same mode.
    closeSync(openSync(partial, 'wx', 0o600));
    chmodSync(partial, 0o600);
    const from = new DatabaseSync(source, { timeout: 5_000 });
    try {
      await backup(from, partial, { rate: ALL_PAGES });
    } finally {
      from.close();
    }
    const copy = new DatabaseSync(partial);
    let leads: number;
    try {
      copy.exec('PRAGMA journal_mode = DELETE');
      const check = (copy.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
      if (check.length !== 1 || check[0] !== 'ok') throw new BackupError(failedCheck(check));
      leads = Number((copy.prepare('SELECT count(*) AS n FROM leads').get() as { n: number }).n);
    } finally {
      copy.close();
    }
    fsyncPath(partial);
    renameSync(partial, destination);
    fsyncPath(dir);
    return { path: destination, bytes: statSync(destination).size, leads };
  } catch (err) {
    removePartial();
    if (err instanceof BackupError) throw err;
    throw new BackupError(`the backup into ${dir} failed (${code(err)}): ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Why a copy that failed `PRAGMA integrity_check` was not kept, in a few lines an operator reads:
 * SQLite's first three findings (up to 100 of them, over many lines) and their number.
 */
function failedCheck(rows: string[]): string {
  const problems = rows.flatMap((row) => row.split('\n')).filter((line) => line !== '' && !line.startsWith('*** in database'));
  const count = problems.length >= 100 ? `${problems.length} or more problems` : plural(problems.length, 'problem');
  return (
    `the copy failed PRAGMA integrity_check, so the store itself is likely damaged; no backup was kept. Check the ` +
    `store (PRAGMA integrity_check) and keep the backups made before now. SQLite found ${count}, the first: ` +
    `${problems.slice(0, 3).join('; ')}`
  );
}

/**
 * Which of the store's files (`source`, its `-wal`, its `-shm`) `destination` is, if any: the same
 * file, whatever the spelling (a relative path, `..`, a symbolic link, a hard link), and whatever
 * the spelling of `source` (SQLite keeps the -wal and -shm beside the file a link points to).
 */
function storeFileAt(source: string, destination: string): string | undefined {
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      // Not there (yet): its folder's real path, and its own name.
      return join(realpathSync(dirname(resolve(path))), basename(path));
    }
  };
  const identity = (path: string) => {
    try {
      const { dev, ino } = statSync(path);
      return `${dev}:${ino}`;
    } catch {
      return undefined;
    }
  };
  const target = real(destination);
  const targetId = identity(destination);
  // SQLite puts the -wal and -shm beside the real file, not beside a symbolic link to it.
  const store = real(source);
  for (const [suffix, name] of [
    ['', 'database file'],
    ['-wal', 'write-ahead log (-wal)'],
    ['-shm', 'shared-memory file (-shm)'],
  ] as const) {
    const file = `${store}${suffix}`;
    if (real(file) === target || (targetId !== undefined && identity(file) === targetId)) return name;
  }
  return undefined;
}
