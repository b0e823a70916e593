/**
 * The embedded lead store on `node:sqlite`: WAL journal, `synchronous=FULL` (every commit is on
 * disk before `submit` resolves), a busy timeout for other processes on the same file.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { LeadRecord } from '../leads/lead.ts';
import { RETENTION_WINDOW_MS, StoreUnavailableError, type IdempotencyClaim, type LeadStore, type SubmitOutcome } from './lead-store.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';

const BUSY_TIMEOUT_MS = 5000;

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

function rowToLead(row: LeadRow): LeadRecord {
  return {
    id: row.id,
    formType: row.form_type,
    receivedAt: row.received_at,
    receivedVia: row.received_via,
    fields: JSON.parse(row.fields),
    phoneE164: row.phone_e164,
    emailNormalised: row.email_normalised,
    fingerprint: row.fingerprint,
    consent: JSON.parse(row.consent),
  };
}

const isBusy = (err: unknown) => err instanceof Error && /SQLITE_BUSY|database is locked/i.test(`${(err as { code?: string }).code ?? ''} ${err.message}`);

/** Opens (creating if needed) the SQLite store at `path`, applies migrations and checks its settings. */
export function openSqliteStore(path: string): LeadStore {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS });
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
  const mode = db.prepare('PRAGMA journal_mode').get() as { journal_mode: string };
  const sync = db.prepare('PRAGMA synchronous').get() as { synchronous: number };
  if ((path !== ':memory:' && mode.journal_mode !== 'wal') || sync.synchronous !== 2) {
    db.close();
    throw new Error(`SQLite store at ${path} refused durable settings (journal_mode=${mode.journal_mode}, synchronous=${sync.synchronous})`);
  }
  migrate(db);

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
  const selectAnnouncement = db.prepare('SELECT first_seen_at FROM announcements WHERE name = ? AND value = ?');
  const upsertAnnouncement = db.prepare(
    `INSERT INTO announcements (name, value, first_seen_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET value = excluded.value, first_seen_at = excluded.first_seen_at`,
  );

  // node:sqlite is synchronous, so one transaction runs to its end before any other request's code:
  // the check-then-insert below cannot interleave within this process, and BEGIN IMMEDIATE takes
  // the write lock first so that another process on the same file cannot interleave either.
  function submitSync(lead: LeadRecord, claim: IdempotencyClaim | undefined): SubmitOutcome {
    const since = new Date(Date.parse(lead.receivedAt) - RETENTION_WINDOW_MS).toISOString();
    db.exec('BEGIN IMMEDIATE');
    try {
      if (claim) {
        const row = findKey.get(claim.key) as { request_hash: string; response: string; created_at: string } | undefined;
        if (row && row.created_at > since) {
          db.exec('ROLLBACK');
          return row.request_hash === claim.requestHash ? { kind: 'replayed', receipt: JSON.parse(row.response) } : { kind: 'key_reused' };
        }
      }
      const duplicate = findDuplicate.get(lead.fingerprint, since) as { id: string } | undefined;
      if (duplicate) {
        db.exec('ROLLBACK');
        return { kind: 'duplicate', leadId: duplicate.id };
      }
      insertLead.run(lead.id, lead.formType, lead.receivedAt, lead.receivedVia, JSON.stringify(lead.fields), lead.phoneE164,
        lead.emailNormalised, lead.fingerprint, JSON.stringify(lead.consent));
      const receipt = { id: lead.id, formType: lead.formType, status: 'received' as const, receivedAt: lead.receivedAt };
      if (claim) saveKey.run(claim.key, claim.requestHash, lead.id, JSON.stringify(receipt), lead.receivedAt);
      db.exec('COMMIT');
      return { kind: 'created', receipt };
    } catch (err) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw err;
    }
  }

  const guard = <T>(fn: () => T): Promise<T> => {
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(isBusy(err) || !db.isOpen ? new StoreUnavailableError('the SQLite store is busy or closed', { cause: err }) : err);
    }
  };

  return {
    kind: 'sqlite',
    submit: (lead, claim) => guard(() => submitSync(lead, claim)),
    ping: () => guard(() => void db.prepare('SELECT 1').get()),
    async *exportLeads() {
      for (const row of db.prepare('SELECT * FROM leads ORDER BY received_at, id').iterate()) yield rowToLead(row as unknown as LeadRow);
    },
    announcedAt: (name, value) =>
      guard(() => {
        const row = selectAnnouncement.get(name, value) as { first_seen_at: string } | undefined;
        return row ? new Date(row.first_seen_at) : undefined;
      }),
    recordAnnouncement: (name, value, at) => guard(() => void upsertAnnouncement.run(name, value, at.toISOString())),
    close: async () => {
      if (db.isOpen) db.close();
    },
  };
}

/** Applies the migrations this database has not seen yet, each in its own transaction. */
function migrate(db: DatabaseSync): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  db.exec('BEGIN IMMEDIATE');
  try {
    const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
    for (const m of SQLITE_MIGRATIONS) {
      if (applied.has(m.version)) continue;
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
    }
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}
