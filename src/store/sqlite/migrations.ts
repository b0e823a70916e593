/** The SQLite store's migrations, in order (`Migration` in `../migration.ts`; append only); `migrate.ts` applies them. */
import { type Migration } from '../migration.ts';
import { FIRST_TEN } from './migrations-1-10.ts';

/** A lead's local day of receipt (`row` is `new` or `old`), as the intake keeps it, or its UTC date before the store knew its clock. */
const DAY = (row: 'new' | 'old') => `COALESCE(${row}.received_day, substr(${row}.received_at, 1, 10))`;
/** What one lead adds to the days' tables (`+ 1`), or takes away from them (`- 1`): its day's count, and once due or contacted, its promise. */
const DAY_COUNTS = (row: 'new' | 'old', sign: '+' | '-', tables: { day: boolean }) => {
  const upsert = (table: string, columns: string, values: string, when: string) =>
    sign === '+'
      ? `INSERT INTO ${table} (${columns}, n) SELECT ${values}, 1 WHERE ${when} ON CONFLICT DO UPDATE SET n = n + 1;`
      : `UPDATE ${table} SET n = n - 1 WHERE (${columns}) = (${values}) AND ${when};
         DELETE FROM ${table} WHERE (${columns}) = (${values}) AND n = 0;`;
  return [
    tables.day && upsert('lead_days', 'day, form_type, service', `${DAY(row)}, ${row}.form_type, COALESCE(${row}.chart_service, '')`, 'true'),
    upsert(
      'lead_days_waiting',
      'answer_by, day, contacted',
      `${row}.answer_by, ${DAY(row)}, ${row}.first_contact_at IS NOT NULL`,
      `${row}.status = 'new' AND ${row}.answer_by IS NOT NULL`,
    ),
    upsert(
      'lead_days_contacted',
      'day, late, minutes',
      `${DAY(row)}, ${row}.first_contact_at > ${row}.answer_by, COALESCE(${row}.first_contact_minutes, -1)`,
      `${row}.first_contact_at IS NOT NULL AND ${row}.answer_by IS NOT NULL`,
    ),
  ]
    .filter(Boolean)
    .join('\n');
};

/** 12 random characters of the base32 alphabet (a-z, 2-7), drawn by the database: an account's opaque id. */
const RANDOM_ID = Array.from({ length: 12 }, () => "substr('abcdefghijklmnopqrstuvwxyz234567', 1 + (random() & 31), 1)").join(' || ');

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  ...FIRST_TEN,
  {
    version: 11,
    name: "the office's roles: staff work the leads; owners also export, delete people and read the audit trail (every account so far an owner)",
    sql: `ALTER TABLE office_users ADD COLUMN role TEXT NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'staff'));`,
  },
  {
    version: 12,
    name: 'working as a team: notes on a lead, kept and erased with it, and who has taken it',
    sql: `
      ALTER TABLE leads ADD COLUMN owner TEXT;
      CREATE INDEX leads_by_owner ON leads (owner, received_at);
      CREATE TABLE lead_notes (
        id INTEGER PRIMARY KEY,
        lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        author TEXT NOT NULL,
        text TEXT NOT NULL
      ) STRICT;
      CREATE INDEX lead_notes_by_lead ON lead_notes (lead_id, at);
    `,
  },
  {
    version: 13,
    name: 'no lost work: a change sent after its session ended, held through the sign-in to be confirmed by the same account',
    sql: `
      CREATE TABLE office_held_changes (
        handle_hash TEXT PRIMARY KEY,
        path TEXT NOT NULL,
        fields TEXT NOT NULL,
        email TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX office_held_changes_by_age ON office_held_changes (created_at);
    `,
  },
  {
    version: 14,
    name: 'the inbox at a glance: leads counted by status, and by week, form and service, each from an index of its own',
    // Both are read alone, never the rows: the counts per status, and the chart's twelve weeks.
    sql: `
      CREATE INDEX leads_by_status ON leads (status, received_at);
      CREATE INDEX leads_by_week ON leads (received_at, form_type, json_extract(fields, '$.service'));
    `,
  },
  {
    version: 15,
    name: 'the inbox at a glance: the leads of each status counted as they come, change and go, not read from an index',
    // Kept by the database itself, whatever writes the leads (intake, the office, a deletion, the
    // purge): counting the index read every lead (10 ms at 100,000). One writer at a time, so no contention.
    sql: `
      CREATE TABLE lead_status_counts (status TEXT PRIMARY KEY, n INTEGER NOT NULL) STRICT, WITHOUT ROWID;
      INSERT INTO lead_status_counts (status, n) SELECT status, count(*) FROM leads GROUP BY status;
      CREATE TRIGGER lead_counted AFTER INSERT ON leads BEGIN
        INSERT INTO lead_status_counts (status, n) VALUES (new.status, 1) ON CONFLICT (status) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER lead_uncounted AFTER DELETE ON leads BEGIN
        UPDATE lead_status_counts SET n = n - 1 WHERE status = old.status;
      END;
      CREATE TRIGGER lead_recounted AFTER UPDATE OF status ON leads WHEN new.status IS NOT old.status BEGIN
        UPDATE lead_status_counts SET n = n - 1 WHERE status = old.status;
        INSERT INTO lead_status_counts (status, n) VALUES (new.status, 1) ON CONFLICT (status) DO UPDATE SET n = n + 1;
      END;
    `,
  },
  {
    version: 16,
    name: 'the promise kept in sight: the answer-by instant of each lead, its first contact (who, when), the waiting leads by urgency',
    sql: `
      ALTER TABLE leads ADD COLUMN answer_by TEXT;
      ALTER TABLE leads ADD COLUMN first_contact_at TEXT;
      ALTER TABLE leads ADD COLUMN first_contact_by TEXT;
      CREATE INDEX leads_waiting ON leads (answer_by) WHERE status = 'new';
    `,
  },
  {
    version: 17,
    name: 'work handed out: each account has an opaque id (12 random characters) by which an address names it, never by its e-mail',
    // Existing accounts get theirs now; a new one gets its own as it is made, whatever makes it.
    sql: `
      ALTER TABLE office_users ADD COLUMN id TEXT;
      UPDATE office_users SET id = ${RANDOM_ID};
      CREATE UNIQUE INDEX office_users_by_id ON office_users (id);
      CREATE TRIGGER office_user_named AFTER INSERT ON office_users WHEN new.id IS NULL BEGIN
        UPDATE office_users SET id = ${RANDOM_ID} WHERE email = new.email;
      END;
    `,
  },
  {
    version: 18,
    name: "the office's figures kept per local day: leads by day, form and service; the waiting by answer-by; first contacts by working minutes",
    // Kept by the database as leads come, change and go, whatever does it (intake, the office, a deletion,
    // the purge), so that the first page reads a few dozen rows however many leads the weeks hold. The day
    // and the chart's part are the intake's (the office's time zone, the services offered), worked out again
    // for every lead when either changes (`keepOfficeClock`), which counts the days afresh: no trigger
    // follows a change of `received_day` or `chart_service`. `leads_by_week` is no longer read: dropped.
    // The indexes by status and ZIP code leave out what a new lead has (status new, which `leads_waiting`
    // holds; no ZIP code), so that a lead comes in without writing them: each cost about 10 µs of its
    // insert. The waiting leads by answer-by, then receipt (a busy day's leads share a few answer-by
    // instants: the first page read them all to order them); a person's e-mail and phone, then receipt
    // (the same person's newest, read by range: a number many leads share no longer costs all of them).
    sql: `
      ALTER TABLE leads ADD COLUMN received_day TEXT;
      ALTER TABLE leads ADD COLUMN chart_service TEXT;
      ALTER TABLE leads ADD COLUMN first_contact_minutes INTEGER;
      CREATE INDEX leads_unkept ON leads (received_at) WHERE received_day IS NULL OR (first_contact_at IS NOT NULL AND first_contact_minutes IS NULL);
      CREATE TABLE office_clock (id INTEGER PRIMARY KEY CHECK (id = 1), key TEXT NOT NULL, promise TEXT NOT NULL) STRICT;
      CREATE TABLE lead_days (day TEXT NOT NULL, form_type TEXT NOT NULL, service TEXT NOT NULL, n INTEGER NOT NULL,
        PRIMARY KEY (day, form_type, service)) STRICT, WITHOUT ROWID;
      CREATE TABLE lead_days_waiting (answer_by TEXT NOT NULL, day TEXT NOT NULL, contacted INTEGER NOT NULL, n INTEGER NOT NULL,
        PRIMARY KEY (answer_by, day, contacted)) STRICT, WITHOUT ROWID;
      CREATE TABLE lead_days_contacted (day TEXT NOT NULL, late INTEGER NOT NULL, minutes INTEGER NOT NULL, n INTEGER NOT NULL,
        PRIMARY KEY (day, late, minutes)) STRICT, WITHOUT ROWID;
      CREATE TRIGGER lead_day_counted AFTER INSERT ON leads BEGIN
        ${DAY_COUNTS('new', '+', { day: true })}
      END;
      CREATE TRIGGER lead_day_uncounted AFTER DELETE ON leads BEGIN
        ${DAY_COUNTS('old', '-', { day: true })}
      END;
      CREATE TRIGGER lead_day_recounted AFTER UPDATE OF status, answer_by, first_contact_at, first_contact_minutes ON leads
      WHEN old.status IS NOT new.status OR old.answer_by IS NOT new.answer_by OR old.first_contact_at IS NOT new.first_contact_at
        OR old.first_contact_minutes IS NOT new.first_contact_minutes BEGIN
        ${DAY_COUNTS('old', '-', { day: false })}
        ${DAY_COUNTS('new', '+', { day: false })}
      END;
      DROP INDEX leads_by_week;
      DROP INDEX leads_by_status;
      CREATE INDEX leads_by_status ON leads (status, received_at) WHERE status <> 'new';
      DROP INDEX leads_by_postal_code;
      CREATE INDEX leads_by_postal_code ON leads (postal_code, received_at) WHERE postal_code IS NOT NULL;
      DROP INDEX leads_waiting;
      CREATE INDEX leads_waiting ON leads (answer_by, received_at) WHERE status = 'new';
      DROP INDEX leads_by_email;
      CREATE INDEX leads_by_email ON leads (email_normalised, received_at);
      DROP INDEX leads_by_phone;
      CREATE INDEX leads_by_phone ON leads (phone_e164, received_at);
      DROP INDEX suspected_spam_by_email;
      CREATE INDEX suspected_spam_by_email ON suspected_spam (email_normalised, received_at);
      DROP INDEX suspected_spam_by_phone;
      CREATE INDEX suspected_spam_by_phone ON suspected_spam (phone_e164, received_at);
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
        id INTEGER PRIMARY KEY,
        lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        tried_by TEXT NOT NULL,
        way TEXT NOT NULL CHECK (way IN ('call', 'text', 'email'))
      ) STRICT;
      CREATE INDEX lead_attempts_by_lead ON lead_attempts (lead_id, at);
    `,
  },
  {
    version: 21,
    name: 'suspected spam marked "not a customer" (who, when): out of the waiting count, kept until its time as the rest',
    // The count of what waits and the spam page's two lists each read an index of their own part, newest first.
    sql: `
      ALTER TABLE suspected_spam ADD COLUMN dismissed_at TEXT;
      ALTER TABLE suspected_spam ADD COLUMN dismissed_by TEXT;
      CREATE INDEX suspected_spam_waiting ON suspected_spam (received_at) WHERE dismissed_at IS NULL;
      CREATE INDEX suspected_spam_dismissed ON suspected_spam (received_at) WHERE dismissed_at IS NOT NULL;
    `,
  },
  {
    version: 22,
    name: "the team's load: each account's waiting leads and first contacts by index; a lead given to someone marked for them until they open it or act on it",
    // Both indexes leave out what a new lead has (nobody's, no first contact): a lead comes in without writing them.
    // A mark goes with its lead (deleted on request or purged), its bytes overwritten as every row's are (secure_delete).
    sql: `
      CREATE TABLE lead_given_marks (
        lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        account TEXT NOT NULL,
        given_by TEXT NOT NULL,
        given_at TEXT NOT NULL,
        PRIMARY KEY (lead_id, account)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX leads_held_waiting ON leads (owner, answer_by) WHERE status = 'new' AND owner IS NOT NULL;
      CREATE INDEX leads_first_contacts ON leads (first_contact_at, first_contact_by) WHERE first_contact_at IS NOT NULL;
    `,
  },
];
