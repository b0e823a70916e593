/**
 * The embedded lead store on `node:sqlite`: WAL journal, `synchronous=FULL` (every commit is on
 * disk before `submit` resolves), a busy timeout for other processes on the same file.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { receiptOf, storedConsent, type LeadRecord } from '../leads/lead.ts';
import {
  CommitOutcomeUnknownError, REPLAY_WINDOW_MS, StoreUnavailableError,
  type DeletionRecord, type IdempotencyClaim, type LeadFilter, type LeadStore, type OutboxEntry, type PersonMatch, type Purged, type Removed, type SubmitOutcome,
} from '../leads/store.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';

// node:sqlite waits synchronously: a lock held by another process blocks the event loop this long
// at most before the submission is answered with 503.
const BUSY_TIMEOUT_MS = 1000;

interface LeadRow {
  id: string;
  form_type: 'quote' | 'support';
  received_at: string;
  received_via: string;
  fields: string;
  phone_e164: string;
  email_normalised: string;
  fingerprint: string;
  consent: string;
}

function rowToLead(row: LeadRow, disclosureText: (version: string) => string | undefined): LeadRecord {
  const consent = storedConsent(JSON.parse(row.consent));
  const text = consent.disclosureVersion === null ? undefined : disclosureText(consent.disclosureVersion);
  return {
    id: row.id,
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

/** How the SQLite store commits. */
export interface SqliteStoreOptions {
  /** Commit submissions that arrive together in one transaction (one fsync); on by default. */
  groupCommit: boolean;
  /** Write each new lead's notification to the office into the outbox, in the lead's transaction. */
  outbox?: boolean;
}

/** Opens (creating if needed) the SQLite store at `path`, applies migrations and checks its settings. */
export function openSqliteStore(path: string, options: SqliteStoreOptions = { groupCommit: true }): LeadStore {
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

  /**
   * The write-ahead log still holds the pages as they were before a deletion, until a checkpoint
   * has copied the log into the file and the log is emptied: done at once after removing a
   * person's leads or leads past retention. A reader in the middle of its transaction can hold
   * it off; the next deletion, or the next checkpoint, then finishes it.
   */
  const eraseFromWal = () => {
    if (path === ':memory:') return;
    // Without waiting: a busy store (another process reading) is not held up for it.
    db.exec('PRAGMA busy_timeout = 0');
    try {
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } finally {
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  };

  const findKey = db.prepare('SELECT request_hash, response, created_at FROM idempotency_keys WHERE key = ?');
  const findDuplicate = db.prepare('SELECT id FROM leads WHERE fingerprint = ? AND received_at > ? ORDER BY received_at LIMIT 1');
  const insertLead = db.prepare(
    `INSERT INTO leads (id, form_type, received_at, received_via, fields, phone_e164, email_normalised, fingerprint, consent)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const saveKey = db.prepare(
    `INSERT INTO idempotency_keys (key, request_hash, lead_id, response, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET request_hash = excluded.request_hash, lead_id = excluded.lead_id,
       response = excluded.response, created_at = excluded.created_at`,
  );
  const insertNotification = db.prepare('INSERT INTO outbox (lead_id, created_at, next_attempt_at) VALUES (?, ?, ?)');
  const insertDisclosure = db.prepare('INSERT INTO disclosures (version, text, first_seen_at) VALUES (?, ?, ?) ON CONFLICT (version) DO NOTHING');
  const selectDisclosure = db.prepare('SELECT text FROM disclosures WHERE version = ?');
  const insertSecret = db.prepare('INSERT INTO secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING');
  const selectSecret = db.prepare('SELECT value FROM secrets WHERE name = ?');
  const selectOne = db.prepare('SELECT 1');
  const selectAnnouncement = db.prepare('SELECT first_seen_at FROM announcements WHERE name = ? AND value = ?');
  const upsertAnnouncement = db.prepare(
    `INSERT INTO announcements (name, value, first_seen_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET value = excluded.value, first_seen_at = excluded.first_seen_at
     WHERE announcements.value <> excluded.value`,
  );

  /** The text of a disclosure version, read once per version. */
  const disclosureTexts = () => {
    const texts = new Map<string, string | undefined>();
    return (version: string) => {
      if (!texts.has(version)) texts.set(version, (selectDisclosure.get(version) as { text: string } | undefined)?.text);
      return texts.get(version);
    };
  };

  // The outbox. A claim is written only when something is due: an idle sender's poll is a read.
  const anyDue = db.prepare('SELECT 1 FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?) LIMIT 1');
  const claimDue = db.prepare(
    `UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE lead_id IN (
       SELECT lead_id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
       ORDER BY next_attempt_at LIMIT ?)
     RETURNING lead_id, attempts`,
  );
  const selectLead = db.prepare('SELECT * FROM leads WHERE id = ?');
  const markSent = db.prepare(
    'UPDATE outbox SET sent_at = ?, attempts = attempts + 1, claimed_by = NULL, claimed_until = NULL, last_error = NULL WHERE lead_id = ? AND sent_at IS NULL',
  );
  const markFailed = db.prepare(
    `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?, claimed_by = NULL, claimed_until = NULL
     WHERE lead_id = ? AND claimed_by = ? AND sent_at IS NULL`,
  );
  const selectOutboxStatus = db.prepare(
    'SELECT count(*) AS waiting, count(*) FILTER (WHERE attempts > 0) AS failing, min(created_at) AS oldest FROM outbox WHERE sent_at IS NULL',
  );
  const selectWaiting = db.prepare(
    `SELECT outbox.lead_id, leads.form_type, leads.received_at, outbox.attempts, outbox.next_attempt_at, outbox.last_error
     FROM outbox JOIN leads ON leads.id = outbox.lead_id WHERE outbox.sent_at IS NULL ORDER BY outbox.created_at, outbox.lead_id LIMIT ?`,
  );

  // The batch's transaction statements, compiled once (as text, each would be parsed per lead).
  const tx = {
    begin: db.prepare('BEGIN IMMEDIATE'),
    savepoint: db.prepare('SAVEPOINT lead'),
    release: db.prepare('RELEASE lead'),
    rollbackTo: db.prepare('ROLLBACK TO lead'),
    commit: db.prepare('COMMIT'),
  };

  /** One submission inside an open transaction: idempotency key, then duplicates, then insert. */
  function submitInTransaction(lead: LeadRecord, claim: IdempotencyClaim | undefined): SubmitOutcome {
    const since = new Date(Date.parse(lead.receivedAt) - REPLAY_WINDOW_MS).toISOString();
    if (claim) {
      const row = findKey.get(claim.key) as { request_hash: string; response: string; created_at: string } | undefined;
      if (row && row.created_at > since) {
        return row.request_hash === claim.requestHash ? { kind: 'replayed', receipt: JSON.parse(row.response) } : { kind: 'key_reused' };
      }
    }
    const duplicate = findDuplicate.get(lead.fingerprint, since) as { id: string } | undefined;
    if (duplicate) return { kind: 'duplicate', leadId: duplicate.id };
    insertLead.run(lead.id, lead.formType, lead.receivedAt, lead.receivedVia, JSON.stringify(lead.fields), lead.phoneE164,
      lead.emailNormalised, lead.fingerprint, JSON.stringify(lead.consent));
    if (lead.disclosure) insertDisclosure.run(lead.disclosure.version, lead.disclosure.text, lead.receivedAt);
    if (options.outbox) insertNotification.run(lead.id, lead.receivedAt, lead.receivedAt);
    const receipt = receiptOf(lead);
    if (claim) saveKey.run(claim.key, claim.requestHash, lead.id, JSON.stringify(receipt), lead.receivedAt);
    return { kind: 'created', receipt };
  }

  interface Pending {
    lead: LeadRecord;
    claim: IdempotencyClaim | undefined;
    resolve(outcome: SubmitOutcome): void;
    reject(err: unknown): void;
  }
  let pending: Pending[] = [];

  /**
   * Commits a batch of submissions in one transaction: one fsync for all of them (group commit).
   * node:sqlite is synchronous, so the batch runs to its end before any other request's code, and
   * BEGIN IMMEDIATE takes the write lock first so that another process on the file cannot interleave
   * either. Each submission has a savepoint of its own, so one failure touches no other; every
   * promise is settled only after COMMIT has returned, so no receipt precedes its commit.
   */
  function commitBatch(batch: Pending[]): void {
    const outcomes: Array<{ ok: SubmitOutcome } | { err: unknown }> = [];
    let phase: 'transaction' | 'commit' = 'transaction';
    try {
      tx.begin.run();
      for (const item of batch) {
        tx.savepoint.run();
        try {
          outcomes.push({ ok: submitInTransaction(item.lead, item.claim) });
          tx.release.run();
        } catch (err) {
          // SQLite itself rolled the whole transaction back (a full disk, an I/O error): the batch
          // fails with that error, not with the savepoint's absence.
          if (!db.isTransaction) throw err;
          tx.rollbackTo.run();
          tx.release.run();
          outcomes.push({ err });
        }
      }
      phase = 'commit';
      tx.commit.run();
    } catch (err) {
      try {
        if (db.isOpen && db.isTransaction) db.exec('ROLLBACK');
      } catch {
        // The transaction is gone with the connection; the batch is refused below either way.
      }
      for (const item of batch) item.reject(storeError(err, phase));
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if ('ok' in outcome) item.resolve(outcome.ok);
      else item.reject(storeError(outcome.err));
    });
  }

  function flush(): void {
    const batch = pending;
    pending = [];
    commitBatch(batch);
  }

  function submit(lead: LeadRecord, claim: IdempotencyClaim | undefined): Promise<SubmitOutcome> {
    return new Promise((resolve, reject) => {
      const item = { lead, claim, resolve, reject };
      if (!options.groupCommit) return commitBatch([item]);
      // Submissions that arrive in the same turn of the event loop share one commit.
      pending.push(item);
      if (pending.length === 1) setImmediate(flush);
    });
  }

  /**
   * What a failure of SQLite means to the caller. An I/O error at COMMIT may come after the commit
   * reached the write-ahead log (a failed fsync): the lead may be stored. A full disk at COMMIT
   * means it was not written. Anything else is the submission's own failure (a bug): a 500.
   */
  const personColumn = (match: PersonMatch) => (match.kind === 'email' ? 'email_normalised' : 'phone_e164');

  function countPerson(match: PersonMatch): Removed {
    const column = personColumn(match);
    const count = (sql: string) => Number((db.prepare(sql).get(match.value) as { n: number }).n);
    return {
      leads: count(`SELECT count(*) AS n FROM leads WHERE ${column} = ?`),
      idempotencyKeys: count(`SELECT count(*) AS n FROM idempotency_keys WHERE lead_id IN (SELECT id FROM leads WHERE ${column} = ?)`),
      fingerprints: count(`SELECT count(*) AS n FROM leads WHERE ${column} = ? AND fingerprint <> ''`),
      officeEmails: (db.prepare(`SELECT lead_id FROM outbox WHERE sent_at IS NOT NULL AND lead_id IN (SELECT id FROM leads WHERE ${column} = ?) ORDER BY lead_id`).all(match.value) as Array<{ lead_id: string }>).map((r) => r.lead_id),
    };
  }

  /** Runs `fn` in a write transaction of its own (outside any submission batch: the store is synchronous). */
  function inTransaction<T>(fn: () => T): T {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      db.exec('COMMIT');
      return result;
    } catch (err) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw err;
    }
  }

  const storeError = (err: unknown, phase: 'transaction' | 'commit' = 'transaction') => {
    if (!db.isOpen) return new StoreUnavailableError('the SQLite store is closed', { cause: err });
    const code = primaryCode(err);
    if (code === undefined || !UNAVAILABLE_CODES.has(code)) return err;
    const reason = `SQLite ${phase === 'commit' ? 'COMMIT' : 'write'} failed: ${(err as { errstr?: string }).errstr ?? (err as Error).message}`;
    return phase === 'commit' && code === SQLITE_IOERR ? new CommitOutcomeUnknownError(reason, { cause: err }) : new StoreUnavailableError(reason, { cause: err });
  };

  const guard = <T>(fn: () => T): Promise<T> => {
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(storeError(err));
    }
  };

  return {
    kind: 'sqlite',
    submit,
    ping: () => guard(() => void selectOne.get()),
    async *exportLeads(filter: LeadFilter = {}) {
      const disclosureText = disclosureTexts();
      const conditions: Array<[string, string | undefined]> = [
        ['received_at >= ?', filter.since?.toISOString()],
        ['received_at < ?', filter.until?.toISOString()],
        ['form_type = ?', filter.form],
      ];
      const used = conditions.filter(([, value]) => value !== undefined);
      const sql = `SELECT * FROM leads ${used.length > 0 ? `WHERE ${used.map(([c]) => c).join(' AND ')}` : ''} ORDER BY received_at, id`;
      const params = used.map(([, value]) => value!);
      // The statement streams: one row in memory at a time, whatever the number of leads.
      for (const row of db.prepare(sql).iterate(...params)) yield rowToLead(row as unknown as LeadRow, disclosureText);
    },
    countPerson: (match) => guard(() => countPerson(match)),
    deletePerson: (match, record) =>
      guard(() => {
        const removed = inTransaction(() => {
          const removed = countPerson(match);
          db.prepare(`DELETE FROM idempotency_keys WHERE lead_id IN (SELECT id FROM leads WHERE ${personColumn(match)} = ?)`).run(match.value);
          db.prepare(`DELETE FROM leads WHERE ${personColumn(match)} = ?`).run(match.value);
          db.prepare('INSERT INTO deletion_records (identifier_kind, deleted_at, lead_count) VALUES (?, ?, ?)').run(record.kind, record.deletedAt.toISOString(), removed.leads);
          return removed;
        });
        eraseFromWal();
        return removed;
      }),
    deletionRecords: () =>
      guard(() =>
        (db.prepare('SELECT identifier_kind, deleted_at, lead_count FROM deletion_records ORDER BY deleted_at, id').all() as Array<{ identifier_kind: DeletionRecord['kind']; deleted_at: string; lead_count: number }>)
          .map((r) => ({ kind: r.identifier_kind, deletedAt: new Date(r.deleted_at), leads: r.lead_count })),
      ),
    purgeStep: (step) =>
      guard(() => {
        const purged = inTransaction((): Purged => {
          const before = (d: Date) => d.toISOString();
          const changes = (sql: string, ...params: Array<string | number>) => Number(db.prepare(sql).run(...params).changes);
          let idempotencyKeys = changes('DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE created_at < ? LIMIT ?)', before(step.replayBefore), step.limit);
          // A fingerprint serves the 24-hour duplicate rule only: it is cleared from the lead afterwards.
          const fingerprints = changes("UPDATE leads SET fingerprint = '' WHERE id IN (SELECT id FROM leads WHERE received_at < ? AND fingerprint <> '' LIMIT ?)", before(step.replayBefore), step.limit);
          const old = `SELECT id FROM leads WHERE received_at < ? LIMIT ?`;
          idempotencyKeys += changes(`DELETE FROM idempotency_keys WHERE lead_id IN (${old})`, before(step.leadsBefore), step.limit);
          const leads = changes(`DELETE FROM leads WHERE id IN (${old})`, before(step.leadsBefore), step.limit);
          const deletionRecords = changes('DELETE FROM deletion_records WHERE id IN (SELECT id FROM deletion_records WHERE deleted_at < ? LIMIT ?)', before(step.deletionRecordsBefore), step.limit);
          return { leads, idempotencyKeys, fingerprints, deletionRecords };
        });
        if (purged.leads > 0 || purged.fingerprints > 0) eraseFromWal();
        return purged;
      }),
    claimNotifications: (claim) =>
      guard(() => {
        const now = claim.now.toISOString();
        if (!anyDue.get(now, now)) return [];
        const claimed = claimDue.all(claim.owner, claim.until.toISOString(), now, now, claim.limit) as Array<{ lead_id: string; attempts: number }>;
        const disclosureText = disclosureTexts();
        return claimed.flatMap(({ lead_id, attempts }) => {
          const row = selectLead.get(lead_id) as LeadRow | undefined;
          return row ? [{ lead: rowToLead(row, disclosureText), attempts }] : [];
        });
      }),
    notificationSent: (leadId, at) => guard(() => void markSent.run(at.toISOString(), leadId)),
    notificationFailed: (leadId, owner, retry) => guard(() => void markFailed.run(retry.at.toISOString(), retry.error, leadId, owner)),
    outboxStatus: () =>
      guard(() => {
        const row = selectOutboxStatus.get() as { waiting: number; failing: number; oldest: string | null };
        return { waiting: row.waiting, failing: row.failing, oldestWaiting: row.oldest === null ? undefined : new Date(row.oldest) };
      }),
    waitingNotifications: (limit) =>
      guard(() =>
        (selectWaiting.all(limit) as Array<{ lead_id: string; form_type: OutboxEntry['formType']; received_at: string; attempts: number; next_attempt_at: string; last_error: string | null }>).map(
          (r): OutboxEntry => ({ leadId: r.lead_id, formType: r.form_type, receivedAt: new Date(r.received_at), attempts: r.attempts, nextAttemptAt: new Date(r.next_attempt_at), lastError: r.last_error }),
        ),
      ),
    secret: (name) =>
      guard(() => {
        insertSecret.run(name, randomBytes(32), new Date().toISOString());
        return Buffer.from((selectSecret.get(name) as { value: Uint8Array }).value);
      }),
    announcedAt: (name, value) =>
      guard(() => {
        const row = selectAnnouncement.get(name, value) as { first_seen_at: string } | undefined;
        return row ? new Date(row.first_seen_at) : undefined;
      }),
    recordAnnouncement: (name, value, at) => guard(() => void upsertAnnouncement.run(name, value, at.toISOString())),
    close: async () => {
      if (pending.length > 0) flush();
      if (db.isOpen) db.close();
    },
  };
}

/** Applies the migrations this database has not seen yet, each in its own transaction. */
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
