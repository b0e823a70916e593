/**
 * The SQLite store's one connection, shared by its roles: opened with durable settings (WAL,
 * `synchronous=FULL`), `secure_delete` on, migrated; with the helpers every role uses: one write
 * transaction, the mapping of SQLite's failures to the domain's, and the emptying of the log.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { storedConsent, type LeadRecord } from '../../leads/lead.ts';
import { CommitOutcomeUnknownError, StoreUnavailableError } from '../../leads/store.ts';
import { SQLITE_MIGRATIONS } from '../migrations.ts';

// node:sqlite waits synchronously: a lock held by another process blocks the event loop this long
// at most before the submission is answered with 503.
const BUSY_TIMEOUT_MS = 1000;

// Emptying the log after a deletion: a reader in the middle of its transaction (another process,
// such as the office's command or a backup) holds it off. Most readers end within milliseconds: the
// deletion tries again after each of these pauses, without blocking the event loop, before it answers.
const WAL_BRIEF_RETRIES_MS = [20, 50, 100];
// Then the store keeps trying in the background, each pause twice the last, up to this, until the log
// is emptied or the store closes: the deleted rows' bytes stay in the `-wal` file until then.
const WAL_RETRY_FIRST_MS = 500;
const WAL_RETRY_MAX_MS = 60_000;

/** Whether the write-ahead log holds nothing any more, or still waits for a reader to end. */
export type WalErasure = 'emptied' | 'pending';

/** A lead as the `leads` table holds it. */
export interface LeadRow {
  id: string;
  reference: string;
  form_type: 'quote' | 'support';
  received_at: string;
  received_via: string;
  fields: string;
  phone_e164: string;
  email_normalised: string;
  fingerprint: string;
  consent: string;
}

/** A lead row as the domain's record, with the text of the disclosure its consent names. */
export function rowToLead(row: LeadRow, disclosureText: (version: string) => string | undefined): LeadRecord {
  const consent = storedConsent(JSON.parse(row.consent));
  const text = consent.disclosureVersion === null ? undefined : disclosureText(consent.disclosureVersion);
  return {
    id: row.id,
    reference: row.reference,
    formType: row.form_type,
    receivedAt: row.received_at,
    receivedVia: row.received_via,
    fields: JSON.parse(row.fields),
    phoneE164: row.phone_e164,
    emailNormalised: row.email_normalised,
    fingerprint: row.fingerprint,
    consent,
    ...(text !== undefined && { disclosure: { version: consent.disclosureVersion!, text } }),
  };
}

/**
 * SQLite's primary result codes that mean the store cannot write now (busy or locked beyond the
 * timeout, out of memory, read-only, an I/O error, a full disk, a file it cannot open), not that
 * the submission was wrong: answered 503, nothing stored.
 */
const UNAVAILABLE_CODES = new Set([5, 6, 7, 8, 10, 13, 14, 15]);
const SQLITE_IOERR = 10;
const primaryCode = (err: unknown): number | undefined => {
  const code = (err as { errcode?: unknown } | undefined)?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
};

/** The connection and what every role of the SQLite store does with it. */
export interface SqliteHandle {
  db: DatabaseSync;
  /**
   * What a failure of SQLite means to the caller. An I/O error at COMMIT may come after the commit
   * reached the write-ahead log (a failed fsync): the lead may be stored. A full disk at COMMIT
   * means it was not written. Anything else is the submission's own failure (a bug): a 500.
   */
  storeError(err: unknown, phase?: 'transaction' | 'commit'): unknown;
  /** Runs `fn` now, its failure mapped by `storeError`, as a promise: the store's every answer. */
  guard<T>(fn: () => T): Promise<T>;
  /** Runs `fn` in a write transaction of its own (outside any submission batch: the store is synchronous). */
  inTransaction<T>(fn: () => T): T;
  /**
   * Empties the write-ahead log, which still holds the pages as they were before a deletion, until
   * a checkpoint has copied the log into the file: done after removing a person's leads or leads
   * past retention. A reader in the middle of its transaction (another process) holds it off: tried
   * again briefly, then, while it still cannot, in the background until it can or the store closes,
   * with a line on standard error when it is held off and when it is done. Resolves `'pending'`
   * when the log still holds the deleted bytes.
   */
  eraseFromWal(): Promise<WalErasure>;
  /** Stops the background attempts, tries once more to empty the log, and closes the connection. */
  close(): void;
  /** The text of a disclosure version, each read once per call of the returned function's maker. */
  disclosureTexts(): (version: string) => string | undefined;
}

/** Opens (creating if needed) the SQLite database at `path`, applies migrations and checks its settings. */
export function openSqliteHandle(path: string): SqliteHandle {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // It holds every customer's details: a new store is its owner's alone, whatever the umask, and
    // SQLite gives the -wal and -shm it makes beside it the same mode.
    closeSync(openSync(path, 'a', 0o600));
  }
  const db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
  // secure_delete: a deleted row's bytes are overwritten with zeros as it goes, in its page and in
  // the free pages it leaves, so that erased means erased in the file and in every later backup.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON;');
  const mode = db.prepare('PRAGMA journal_mode').get() as { journal_mode: string };
  const sync = db.prepare('PRAGMA synchronous').get() as { synchronous: number };
  if ((path !== ':memory:' && mode.journal_mode !== 'wal') || sync.synchronous !== 2) {
    db.close();
    throw new Error(`SQLite store at ${path} refused durable settings (journal_mode=${mode.journal_mode}, synchronous=${sync.synchronous})`);
  }
  migrate(db);

  const storeError = (err: unknown, phase: 'transaction' | 'commit' = 'transaction') => {
    if (!db.isOpen) return new StoreUnavailableError('the SQLite store is closed', { cause: err });
    const code = primaryCode(err);
    if (code === undefined || !UNAVAILABLE_CODES.has(code)) return err;
    const reason = `SQLite ${phase === 'commit' ? 'COMMIT' : 'write'} failed: ${(err as { errstr?: string }).errstr ?? (err as Error).message}`;
    return phase === 'commit' && code === SQLITE_IOERR
      ? new CommitOutcomeUnknownError(reason, { cause: err })
      : new StoreUnavailableError(reason, { cause: err });
  };
  const selectDisclosure = db.prepare('SELECT text FROM disclosures WHERE version = ?');
  const wal = walEraser(db, path);

  return {
    db,
    storeError,
    guard<T>(fn: () => T): Promise<T> {
      try {
        return Promise.resolve(fn());
      } catch (err) {
        return Promise.reject(storeError(err));
      }
    },
    inTransaction<T>(fn: () => T): T {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = fn();
        db.exec('COMMIT');
        return result;
      } catch (err) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw err;
      }
    },
    eraseFromWal: (): Promise<WalErasure> => wal.erase(),
    close() {
      if (!db.isOpen) return;
      wal.stop();
      db.close();
    },
    disclosureTexts() {
      const texts = new Map<string, string | undefined>();
      return (version: string) => {
        if (!texts.has(version)) texts.set(version, (selectDisclosure.get(version) as { text: string } | undefined)?.text);
        return texts.get(version);
      };
    },
  };
}

/**
 * One attempt to empty the log: `PRAGMA wal_checkpoint(TRUNCATE)` without waiting for a reader. It
 * reports (rather than throws) a reader that holds it off: `busy` = 1, or fewer frames copied
 * than the log holds. What it throws (the connection's own statement still reading, an I/O error)
 * holds it off too, and is said by its SQLite code alone, which carries no row's value.
 */
function checkpoint(db: DatabaseSync): { emptied: true } | { emptied: false; why: string } {
  db.exec('PRAGMA busy_timeout = 0');
  try {
    const { busy, log, checkpointed } = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number; log: number; checkpointed: number };
    return busy === 0 && log === checkpointed ? { emptied: true } : { emptied: false, why: 'another connection is in the middle of a read' };
  } catch (err) {
    return { emptied: false, why: `SQLite error ${(err as { errcode?: number }).errcode ?? (err as Error).message}` };
  } finally {
    if (db.isOpen) db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/**
 * The emptying of the log after deletions: at once, briefly again, then in the background on an
 * unref'd timer (it keeps no process alive), backing off, until done or stopped. Its state is said
 * on standard error, in words and without the person's data: the handle has no logger, and the
 * server and the office's command both show standard error to the operator.
 */
function walEraser(db: DatabaseSync, path: string) {
  const say = (line: string) => process.stderr.write(`SQLite store ${path}: ${line}\n`);
  let timer: NodeJS.Timeout | undefined;
  let pause = WAL_RETRY_FIRST_MS;
  let heldOff = false;

  const attempt = (): boolean => {
    if (!db.isOpen) return false;
    const result = checkpoint(db);
    if (result.emptied) {
      if (heldOff) say('the write-ahead log is now emptied; the deleted rows are gone from it.');
      heldOff = false;
      return true;
    }
    if (!heldOff) {
      say(
        `could not empty the write-ahead log after a deletion (${result.why}); the deleted rows stay in its -wal file until it can, and it will keep trying.`,
      );
    }
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
      for (const ms of pauses) {
        if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
        if (attempt()) {
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
      if (checkpoint(db).emptied) {
        if (heldOff) say('the write-ahead log is now emptied; the deleted rows are gone from it.');
      } else if (heldOff) {
        say('closed with the write-ahead log still holding deleted rows: the next checkpoint of any connection to this file empties it.');
      }
      heldOff = false;
    },
  };
}

/** Applies the migrations this database has not seen yet, in one transaction; then, if one asks, rebuilds the file. */
function migrate(db: DatabaseSync): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  let vacuum = false;
  db.exec('BEGIN IMMEDIATE');
  try {
    const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
    for (const m of SQLITE_MIGRATIONS) {
      if (applied.has(m.version)) continue;
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
      vacuum ||= m.vacuum === true;
    }
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
  if (vacuum) {
    db.exec('VACUUM');
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }
}
