/**
 * The SQLite store's emptying of its write-ahead log after a deletion (`eraseFromWal` on the handle),
 * and where the store says what the operator should know about it (`StoreLog`).
 */
import type { DatabaseSync } from 'node:sqlite';

// Emptying the log after a deletion: a reader in the middle of its transaction (another process,
// such as the running service reading a page of an export, or a backup) holds it off. Most readers
// end within milliseconds, later on a busy machine: the deletion tries again after each of these
// pauses (under a second in all), without blocking the event loop, before it answers, and warns
// only when they have all been held off.
const WAL_BRIEF_RETRIES_MS = [20, 50, 100, 250, 500];
// Then the store keeps trying in the background, each pause twice the last, up to this, until the log
// is emptied or the store closes: the deleted rows' bytes stay in the `-wal` file until then.
const WAL_RETRY_FIRST_MS = 500;
const WAL_RETRY_MAX_MS = 60_000;

/**
 * Where the store says what the operator should know (the emptying of the log after a deletion):
 * the service's logger (pino), or, for the office's commands, a line on standard error.
 */
export interface StoreLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/** A log for a person at a terminal: each line its message, on standard error. */
export const TERMINAL_LOG: StoreLog = {
  warn: (_fields, message) => void process.stderr.write(`${message}\n`),
  info: (_fields, message) => void process.stderr.write(`${message}\n`),
};

/** Whether the write-ahead log holds nothing any more, or still waits for a reader to end. */
export type WalErasure = 'emptied' | 'pending';

/**
 * One attempt to empty the log: `PRAGMA wal_checkpoint(TRUNCATE)` without waiting for a reader. It
 * reports (rather than throws) a reader that holds it off: `busy` = 1, or fewer frames copied
 * than the log holds. What it throws (the connection's own statement still reading, an I/O error)
 * holds it off too, and is said by its SQLite code alone, which carries no row's value.
 */
function checkpoint(db: DatabaseSync, busyTimeoutMs: number): { emptied: true } | { emptied: false; why: string } {
  db.exec('PRAGMA busy_timeout = 0');
  try {
    const { busy, log, checkpointed } = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number; log: number; checkpointed: number };
    return busy === 0 && log === checkpointed ? { emptied: true } : { emptied: false, why: 'another connection is in the middle of a read' };
  } catch (err) {
    return { emptied: false, why: `SQLite error ${(err as { errcode?: number }).errcode ?? (err as Error).message}` };
  } finally {
    if (db.isOpen) db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  }
}

/**
 * The emptying of the log after deletions: at once, briefly again, then in the background on an
 * unref'd timer (it keeps no process alive), backing off, until done or stopped. Its state goes to
 * the store's log, in words and without the person's data: a warning, with what the operator can
 * do, while deleted rows wait in the log; a line once they are gone.
 */
export function walEraser(db: DatabaseSync, path: string, log: StoreLog, busyTimeoutMs: number) {
  const done = () => log.info({ store: path }, `SQLite store ${path}: the write-ahead log is now emptied; the deleted rows are gone from it.`);
  const heldOffBy = (why: string, closing: boolean) =>
    log.warn(
      { store: path, why },
      closing
        ? `SQLite store ${path}: closed with the write-ahead log still holding deleted rows (${why}). The next checkpoint ` +
            `of any connection to this file empties it: start the service again, or run any leads command, once no backup ` +
            `or other program is reading the file.`
        : `SQLite store ${path}: could not empty the write-ahead log after a deletion (${why}); the deleted rows stay in ` +
            `its -wal file until it can, and it keeps trying. If this lasts, end the other program reading the file (a ` +
            `backup, a copy, an open sqlite3 shell).`,
    );
  let timer: NodeJS.Timeout | undefined;
  let pause = WAL_RETRY_FIRST_MS;
  let heldOff = false;

  /** One attempt; a failed one is said (once, until the log is emptied) unless more brief tries follow. */
  const attempt = (moreToCome = false): boolean => {
    if (!db.isOpen) return false;
    const result = checkpoint(db, busyTimeoutMs);
    if (result.emptied) {
      if (heldOff) done();
      heldOff = false;
      return true;
    }
    if (moreToCome) return false;
    if (!heldOff) heldOffBy(result.why, false);
    heldOff = true;
    return false;
  };
  const schedule = () => {
    if (timer !== undefined || !db.isOpen) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (attempt()) {
        pause = WAL_RETRY_FIRST_MS;
        return;
      }
      pause = Math.min(pause * 2, WAL_RETRY_MAX_MS);
      schedule();
    }, pause).unref();
  };
  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
    pause = WAL_RETRY_FIRST_MS;
  };

  return {
    async erase(): Promise<WalErasure> {
      if (path === ':memory:') return 'emptied';
      // Already waiting in the background for a reader: one attempt now, and the timer goes on.
      const pauses = timer === undefined ? [0, ...WAL_BRIEF_RETRIES_MS] : [0];
      for (const [i, ms] of pauses.entries()) {
        if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
        if (attempt(i < pauses.length - 1)) {
          cancel();
          return 'emptied';
        }
      }
      schedule();
      return 'pending';
    },
    /**
     * Before closing: no more timers, and a last attempt (closing empties the log only when no other
     * connection has the file open), whose failure is said if deleted rows are still in the log.
     */
    stop() {
      cancel();
      if (path === ':memory:') return;
      const last = checkpoint(db, busyTimeoutMs);
      if (last.emptied) {
        if (heldOff) done();
      } else if (heldOff) {
        heldOffBy(last.why, true);
      }
      heldOff = false;
    },
  };
}
