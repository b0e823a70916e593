/** The PostgreSQL store's first ten migrations, as they shipped (append only: later ones are in `./migrations.ts`). */
import { REFERENCES, type Migration } from '../migration.ts';

export const FIRST_TEN: readonly Migration[] = [
  {
    version: 1,
    name: 'leads, idempotency keys, fingerprints and announcements',
    sql: `
      CREATE TABLE leads (
        id text PRIMARY KEY,
        form_type text NOT NULL CHECK (form_type IN ('quote', 'support')),
        received_at timestamptz NOT NULL,
        received_via text NOT NULL,
        fields json NOT NULL,
        phone_e164 text NOT NULL,
        email_normalised text NOT NULL,
        fingerprint text NOT NULL,
        consent json NOT NULL
      );
      CREATE INDEX leads_by_receipt ON leads (received_at, id);
      CREATE TABLE idempotency_keys (
        key text PRIMARY KEY,
        request_hash text NOT NULL,
        lead_id text NOT NULL REFERENCES leads (id),
        response json NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE lead_fingerprints (
        fingerprint text PRIMARY KEY,
        lead_id text NOT NULL REFERENCES leads (id),
        received_at timestamptz NOT NULL
      );
      CREATE TABLE announcements (
        name text PRIMARY KEY,
        value text NOT NULL,
        first_seen_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'consent disclosures of the web forms, and server-held keys',
    sql: `
      CREATE TABLE disclosures (
        version text PRIMARY KEY,
        text text NOT NULL,
        first_seen_at timestamptz NOT NULL
      );
      CREATE TABLE secrets (
        name text PRIMARY KEY,
        value bytea NOT NULL,
        created_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'deletion records; indexes for deletion on request and for retention',
    sql: `
      CREATE TABLE deletion_records (
        id bigserial PRIMARY KEY,
        identifier_hash text NOT NULL,
        identifier_kind text NOT NULL CHECK (identifier_kind IN ('email', 'phone')),
        deleted_at timestamptz NOT NULL,
        lead_count integer NOT NULL
      );
      CREATE INDEX deletion_records_by_time ON deletion_records (deleted_at);
      CREATE INDEX leads_by_email ON leads (email_normalised);
      CREATE INDEX leads_by_phone ON leads (phone_e164);
      CREATE INDEX idempotency_keys_by_time ON idempotency_keys (created_at);
      CREATE INDEX idempotency_keys_by_lead ON idempotency_keys (lead_id);
      CREATE INDEX lead_fingerprints_by_time ON lead_fingerprints (received_at);
      CREATE INDEX lead_fingerprints_by_lead ON lead_fingerprints (lead_id);
    `,
  },
  {
    version: 4,
    name: "the outbox of the office's e-mail about each new lead",
    sql: `
      CREATE TABLE outbox (
        lead_id text PRIMARY KEY REFERENCES leads (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        claimed_by text,
        claimed_until timestamptz,
        last_error text,
        sent_at timestamptz
      );
      CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL;
    `,
  },
  {
    version: 5,
    name: 'deletion records keep no identifier, and their key is gone',
    // PostgreSQL's DROP COLUMN only hides the column: its values stay in the rows until they are
    // rewritten. Blanking them first leaves them only in dead rows, which VACUUM reclaims.
    sql: `
      UPDATE deletion_records SET identifier_hash = '';
      ALTER TABLE deletion_records DROP COLUMN identifier_hash;
      DELETE FROM secrets WHERE name = 'deletion-records';
    `,
  },
  { version: 6, name: 'a short reference for every lead', sql: REFERENCES },
  {
    version: 7,
    name: "the office's page: accounts, sessions, a status on every lead, suspected spam kept aside, an audit trail",
    sql: `
      ALTER TABLE leads ADD COLUMN status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'contacted', 'done'));
      ALTER TABLE leads ADD COLUMN status_by text;
      ALTER TABLE leads ADD COLUMN status_at timestamptz;
      CREATE TABLE office_users (
        email text PRIMARY KEY,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        last_sign_in_at timestamptz
      );
      CREATE TABLE office_sessions (
        token_hash text PRIMARY KEY,
        email text NOT NULL REFERENCES office_users (email) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL
      );
      CREATE TABLE suspected_spam (
        id text PRIMARY KEY,
        reference text NOT NULL,
        form_type text NOT NULL CHECK (form_type IN ('quote', 'support')),
        received_at timestamptz NOT NULL,
        reason text NOT NULL,
        submission json NOT NULL,
        email_normalised text NOT NULL,
        phone_e164 text NOT NULL
      );
      CREATE INDEX suspected_spam_by_time ON suspected_spam (received_at);
      CREATE INDEX suspected_spam_by_email ON suspected_spam (email_normalised);
      CREATE INDEX suspected_spam_by_phone ON suspected_spam (phone_e164);
      CREATE TABLE office_audit (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL,
        actor text NOT NULL,
        action text NOT NULL,
        detail text NOT NULL
      );
      CREATE INDEX office_audit_by_time ON office_audit (at);
    `,
  },
  {
    version: 8,
    name: "the office's searches, kept by handle so that no search text is in a URL",
    sql: `
      CREATE TABLE office_searches (
        handle text PRIMARY KEY,
        token_hash text NOT NULL REFERENCES office_sessions (token_hash) ON DELETE CASCADE,
        text text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX office_searches_by_session ON office_searches (token_hash, created_at);
    `,
  },
  {
    version: 9,
    name: 'where the home is: its ZIP code, and whether it was in the service area when the lead came',
    sql: `
      ALTER TABLE leads ADD COLUMN postal_code text, ADD COLUMN in_service_area boolean;
      CREATE INDEX leads_by_postal_code ON leads (postal_code, received_at);
    `,
  },
  {
    version: 10,
    name: "the office's search that forgives: a folded name, e-mail and phone digits on every lead and caught submission, in an index of their own",
    // Filled in by the store as it opens (`fillSearchText`): folding is the code's (`fold`), not SQL's.
    // A search can read the index (the folded text and the row's key) alone, never the rows.
    sql: `
      ALTER TABLE leads ADD COLUMN search_text text;
      ALTER TABLE suspected_spam ADD COLUMN search_text text;
      CREATE INDEX leads_by_search ON leads (search_text, reference);
      CREATE INDEX suspected_spam_by_search ON suspected_spam (search_text, reference, id);
    `,
  },
];
