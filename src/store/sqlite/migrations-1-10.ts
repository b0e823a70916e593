/** The SQLite store's first ten migrations, as they shipped (append only: later ones are in `./migrations.ts`). */
import { REFERENCES, type Migration } from '../migration.ts';

export const FIRST_TEN: readonly Migration[] = [
  {
    version: 1,
    name: 'leads, idempotency keys and announcements',
    sql: `
      CREATE TABLE leads (
        id TEXT PRIMARY KEY,
        form_type TEXT NOT NULL CHECK (form_type IN ('quote', 'support')),
        received_at TEXT NOT NULL,
        received_via TEXT NOT NULL,
        fields TEXT NOT NULL,
        phone_e164 TEXT NOT NULL,
        email_normalised TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        consent TEXT NOT NULL
      ) STRICT;
      CREATE INDEX leads_by_fingerprint ON leads (fingerprint, received_at);
      CREATE INDEX leads_by_receipt ON leads (received_at, id);
      CREATE TABLE idempotency_keys (
        key TEXT PRIMARY KEY,
        request_hash TEXT NOT NULL,
        lead_id TEXT NOT NULL REFERENCES leads (id),
        response TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE announcements (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        first_seen_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 2,
    name: 'consent disclosures of the web forms, and server-held keys',
    sql: `
      CREATE TABLE disclosures (
        version TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        first_seen_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE secrets (
        name TEXT PRIMARY KEY,
        value BLOB NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 3,
    name: 'deletion records; indexes for deletion on request and for retention',
    sql: `
      CREATE TABLE deletion_records (
        id INTEGER PRIMARY KEY,
        identifier_hash TEXT NOT NULL,
        identifier_kind TEXT NOT NULL CHECK (identifier_kind IN ('email', 'phone')),
        deleted_at TEXT NOT NULL,
        lead_count INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX deletion_records_by_time ON deletion_records (deleted_at);
      CREATE INDEX leads_by_email ON leads (email_normalised);
      CREATE INDEX leads_by_phone ON leads (phone_e164);
      CREATE INDEX idempotency_keys_by_time ON idempotency_keys (created_at);
      CREATE INDEX idempotency_keys_by_lead ON idempotency_keys (lead_id);
    `,
  },
  {
    version: 4,
    name: "the outbox of the office's e-mail about each new lead",
    sql: `
      CREATE TABLE outbox (
        lead_id TEXT PRIMARY KEY REFERENCES leads (id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        claimed_by TEXT,
        claimed_until TEXT,
        last_error TEXT,
        sent_at TEXT
      ) STRICT;
      CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL;
    `,
  },
  {
    version: 5,
    name: 'erasure that erases: deletion records keep no identifier, their key is gone, and deleted rows leave no bytes behind',
    sql: `
      ALTER TABLE deletion_records DROP COLUMN identifier_hash;
      DELETE FROM secrets WHERE name = 'deletion-records';
    `,
    vacuum: true,
  },
  { version: 6, name: 'a short reference for every lead', sql: REFERENCES },
  {
    version: 7,
    name: "the office's page: accounts, sessions, a status on every lead, suspected spam kept aside, an audit trail",
    sql: `
      ALTER TABLE leads ADD COLUMN status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'contacted', 'done'));
      ALTER TABLE leads ADD COLUMN status_by TEXT;
      ALTER TABLE leads ADD COLUMN status_at TEXT;
      CREATE TABLE office_users (
        email TEXT PRIMARY KEY,
        password_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_sign_in_at TEXT
      ) STRICT;
      CREATE TABLE office_sessions (
        token_hash TEXT PRIMARY KEY,
        email TEXT NOT NULL REFERENCES office_users (email) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE suspected_spam (
        id TEXT PRIMARY KEY,
        reference TEXT NOT NULL,
        form_type TEXT NOT NULL CHECK (form_type IN ('quote', 'support')),
        received_at TEXT NOT NULL,
        reason TEXT NOT NULL,
        submission TEXT NOT NULL,
        email_normalised TEXT NOT NULL,
        phone_e164 TEXT NOT NULL
      ) STRICT;
      CREATE INDEX suspected_spam_by_time ON suspected_spam (received_at);
      CREATE INDEX suspected_spam_by_email ON suspected_spam (email_normalised);
      CREATE INDEX suspected_spam_by_phone ON suspected_spam (phone_e164);
      CREATE TABLE office_audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        detail TEXT NOT NULL
      ) STRICT;
      CREATE INDEX office_audit_by_time ON office_audit (at);
    `,
  },
  {
    version: 8,
    name: "the office's searches, kept by handle so that no search text is in a URL",
    sql: `
      CREATE TABLE office_searches (
        handle TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL REFERENCES office_sessions (token_hash) ON DELETE CASCADE,
        text TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX office_searches_by_session ON office_searches (token_hash, created_at);
    `,
  },
  {
    version: 9,
    name: 'where the home is: its ZIP code, and whether it was in the service area when the lead came',
    sql: `
      ALTER TABLE leads ADD COLUMN postal_code TEXT;
      ALTER TABLE leads ADD COLUMN in_service_area INTEGER;
      CREATE INDEX leads_by_postal_code ON leads (postal_code, received_at);
    `,
  },
  {
    version: 10,
    name: "the office's search that forgives: a folded name, e-mail and phone digits on every lead and caught submission, in an index of their own",
    // Filled in by the store as it opens (`fillSearchText`): folding is the code's (`fold`), not SQL's.
    // A search reads the index (the folded text and the row's key) alone, never the rows.
    sql: `
      ALTER TABLE leads ADD COLUMN search_text TEXT;
      ALTER TABLE suspected_spam ADD COLUMN search_text TEXT;
      CREATE INDEX leads_by_search ON leads (search_text, reference);
      CREATE INDEX suspected_spam_by_search ON suspected_spam (search_text, reference, id);
    `,
  },
];
