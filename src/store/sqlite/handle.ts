/**
 * The SQLite store's one connection, shared by its roles: opened with durable settings (WAL,
 * `synchronous=FULL`), `secure_delete` on, migrated; with the helpers every role uses: one write
 * transaction, the mapping of SQLite's failures to the domain's, and the emptying of the log.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { storedConsent, type LeadRecord } from '../../leads/lead.ts';
import { CommitOutcomeUnknownError, StoreUnavailableError, type AuditNote } from '../../leads/store.ts';
import { migrate } from './migrate.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';
import { TERMINAL_LOG, walEraser, type StoreLog, type WalErasure } from './wal-eraser.ts';

export { TERMINAL_LOG, type StoreLog, type WalErasure } from './wal-eraser.ts';

// node:sqlite waits synchronously: a lock held by another process blocks the event loop this long
// at most before the submission is answered with 503.
const BUSY_TIMEOUT_MS = 1000;

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
  postal_code: string | null;
  in_service_area: number | null;
  answer_by?: string | null;
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
    ...(row.in_service_area !== null && row.in_service_area !== undefined && { inServiceArea: row.in_service_area === 1 }),
    ...(row.answer_by && { answerBy: row.answer_by }),
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
   * with a warning in the store's log when it is held off and a line when it is done. Resolves `'pending'`
   * when the log still holds the deleted bytes.
   */
  eraseFromWal(): Promise<WalErasure>;
  /** Writes a line of the office's audit trail, inside the caller's transaction. */
  writeAudit(note: AuditNote): void;
  /** Stops the background attempts, tries once more to empty the log, and closes the connection. */
  close(): void;
  /** The text of a disclosure version, each read once per call of the returned function's maker. */
  disclosureTexts(): (version: string) => string | undefined;
}

/** Opens (creating if needed) the SQLite database at `path`, applies migrations and checks its settings. */
export function openSqliteHandle(path: string, log: StoreLog = TERMINAL_LOG): SqliteHandle {
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
  migrate(db, SQLITE_MIGRATIONS);

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
  const insertAudit = db.prepare('INSERT INTO office_audit (at, actor, action, detail) VALUES (?, ?, ?, ?)');
  const wal = walEraser(db, path, log, BUSY_TIMEOUT_MS);

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
    writeAudit: (note) => void insertAudit.run(note.at.toISOString(), note.actor, note.action, note.detail),
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
