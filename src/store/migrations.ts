/** Versioned schema migrations of the SQLite store. Append only: a published migration never changes. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const SQLITE_MIGRATIONS: readonly Migration[] = [
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
];
