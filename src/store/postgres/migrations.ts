/**
 * The PostgreSQL store's migrations, in order (`Migration` in `../migration.ts`). Append only.
 * PostgreSQL: `json` (not `jsonb`) keeps the fields in the order they were sent. Idempotency keys
 * and fingerprints are primary keys, so the database, not a read-then-write, decides who was first.
 */
import { type Migration } from '../migration.ts';
import { FIRST_TEN } from './migrations-1-10.ts';

/** 12 random characters of the base32 alphabet (a-z, 2-7), drawn by the database: an account's opaque id. */
const RANDOM_ID = Array.from({ length: 12 }, () => "substr('abcdefghijklmnopqrstuvwxyz234567', 1 + floor(random() * 32)::int, 1)").join(' || ');

export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  ...FIRST_TEN,
  {
    version: 11,
    name: "the office's roles: staff work the leads; owners also export, delete people and read the audit trail (every account so far an owner)",
    sql: `ALTER TABLE office_users ADD COLUMN role text NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'staff'));`,
  },
  {
    version: 12,
    name: 'working as a team: notes on a lead, kept and erased with it, and who has taken it',
    sql: `
      ALTER TABLE leads ADD COLUMN owner text;
      CREATE INDEX leads_by_owner ON leads (owner, received_at);
      CREATE TABLE lead_notes (
        id bigserial PRIMARY KEY,
        lead_id text NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        at timestamptz NOT NULL,
        author text NOT NULL,
        text text NOT NULL
      );
      CREATE INDEX lead_notes_by_lead ON lead_notes (lead_id, at);
    `,
  },
  {
    version: 13,
    name: 'no lost work: a change sent after its session ended, held through the sign-in to be confirmed by the same account',
    sql: `
      CREATE TABLE office_held_changes (
        handle_hash text PRIMARY KEY,
        path text NOT NULL,
        fields jsonb NOT NULL,
        email text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX office_held_changes_by_age ON office_held_changes (created_at);
    `,
  },
  {
    version: 14,
    name: 'the inbox at a glance: leads counted by status, and by week, form and service, each from an index of its own',
    // Both are read alone, never the rows: the counts per status, and the chart's twelve weeks. The
    // service is a column the database keeps from the fields (an index of an expression is never read alone).
    sql: `
      ALTER TABLE leads ADD COLUMN service text GENERATED ALWAYS AS (fields->>'service') STORED;
      CREATE INDEX leads_by_status ON leads (status, received_at);
      CREATE INDEX leads_by_week ON leads (received_at, form_type, service);
    `,
  },
  {
    version: 15,
    name: 'the purge finds the fingerprints still to clear (about a day of leads) without reading every older lead',
    sql: `CREATE INDEX leads_with_fingerprint ON leads (received_at) WHERE fingerprint <> '';`,
  },
  {
    version: 16,
    name: 'the promise kept in sight: the answer-by instant of each lead, its first contact (who, when), the waiting leads by urgency',
    sql: `
      ALTER TABLE leads ADD COLUMN answer_by timestamptz, ADD COLUMN first_contact_at timestamptz, ADD COLUMN first_contact_by text;
      CREATE INDEX leads_waiting ON leads (answer_by) WHERE status = 'new';
    `,
  },
  {
    version: 17,
    name: 'work handed out: each account has an opaque id (12 random characters) by which an address names it, never by its e-mail',
    // A volatile default: each existing account gets its own as the column is added, and each new one as it is made.
    sql: `
      ALTER TABLE office_users ADD COLUMN id text NOT NULL DEFAULT (${RANDOM_ID});
      CREATE UNIQUE INDEX office_users_by_id ON office_users (id);
    `,
  },
  {
    version: 18,
    name: "the promise chart's median kept with each first contact (its working minutes), and the office's clock the minutes are measured by",
    // Several instances write at once here: the office's figures are read from the leads by index, not
    // counted per day in rows every instance's lead would update (decision 0027).
    sql: `
      ALTER TABLE leads ADD COLUMN first_contact_minutes integer;
      CREATE INDEX leads_unmeasured ON leads (received_at) WHERE first_contact_at IS NOT NULL AND first_contact_minutes IS NULL;
      CREATE TABLE office_clock (id integer PRIMARY KEY CHECK (id = 1), key text NOT NULL, promise text NOT NULL);
    `,
  },
  {
    version: 19,
    name: 'the leads still without an answer-by instant, so that a start reads only them',
    // Every lead comes in with its instant, so a lead's write never touches this index.
    sql: `CREATE INDEX leads_without_answer_by ON leads (received_at) WHERE answer_by IS NULL;`,
  },
  {
    version: 20,
    name: 'attempts: a call, text or e-mail that reached nobody, by whom, when and how, kept and erased with its lead',
    sql: `
      CREATE TABLE lead_attempts (
        id bigserial PRIMARY KEY,
        lead_id text NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        at timestamptz NOT NULL,
        tried_by text NOT NULL,
        way text NOT NULL CHECK (way IN ('call', 'text', 'email'))
      );
      CREATE INDEX lead_attempts_by_lead ON lead_attempts (lead_id, at);
    `,
  },
  {
    version: 21,
    name: 'suspected spam marked "not a customer" (who, when): out of the waiting count, kept until its time as the rest',
    // The count of what waits and the spam page's two lists each read an index of their own part, newest first.
    sql: `
      ALTER TABLE suspected_spam ADD COLUMN dismissed_at timestamptz, ADD COLUMN dismissed_by text;
      CREATE INDEX suspected_spam_waiting ON suspected_spam (received_at) WHERE dismissed_at IS NULL;
      CREATE INDEX suspected_spam_dismissed ON suspected_spam (received_at) WHERE dismissed_at IS NOT NULL;
    `,
  },
  {
    version: 22,
    name: "the team's load: each account's waiting leads and first contacts by index; a lead given to someone marked for them until they open it or act on it",
    // Both indexes leave out what a new lead has (nobody's, no first contact): a lead comes in without writing them.
    sql: `
      CREATE TABLE lead_given_marks (
        lead_id text NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        account text NOT NULL,
        given_by text NOT NULL,
        given_at timestamptz NOT NULL,
        PRIMARY KEY (lead_id, account)
      );
      CREATE INDEX leads_held_waiting ON leads (owner, answer_by) WHERE status = 'new' AND owner IS NOT NULL;
      CREATE INDEX leads_first_contacts ON leads (first_contact_at, first_contact_by) WHERE first_contact_at IS NOT NULL;
    `,
  },
];
