/**
 * The SQLite store's office roles: the staff's accounts and sessions, the inbox with each lead's
 * status, suspected spam kept aside, and the audit trail.
 */
import type {
  AuditEntry,
  AuditTrail,
  InboxQuery,
  LeadStatus,
  OfficeAccounts,
  OfficeInbox,
  OfficeSessions,
  SpamFolder,
  SuspectedSpam,
} from '../../office/store.ts';
import { inboxSearch } from '../../office/search.ts';
import { rowToLead, type LeadRow, type SqliteHandle } from './handle.ts';

type InboxRow = LeadRow & { status: LeadStatus; status_by: string | null; status_at: string | null };
type SpamRow = {
  id: string;
  reference: string;
  form_type: SuspectedSpam['formType'];
  received_at: string;
  reason: SuspectedSpam['reason'];
  submission: string;
};

const toSpam = (r: SpamRow): SuspectedSpam => {
  const { body, meta } = JSON.parse(r.submission) as Pick<SuspectedSpam, 'body' | 'meta'>;
  return { id: r.id, reference: r.reference, formType: r.form_type, receivedAt: new Date(r.received_at), reason: r.reason, body, meta };
};

/** The office's roles on `handle`. */
export function sqliteOffice(handle: SqliteHandle): OfficeAccounts & OfficeSessions & OfficeInbox & SpamFolder & AuditTrail {
  const { db, guard, inTransaction, eraseFromWal } = handle;
  const iso = (d: Date) => d.toISOString();
  // SQLite's lower() folds ASCII only: "zoë" must find "ZOË", as on PostgreSQL.
  db.function('office_fold', { deterministic: true }, (text) => (typeof text === 'string' ? text.toLowerCase() : text));

  return {
    saveUser: (email, passwordHash, at) =>
      guard(() =>
        inTransaction(() => {
          const existed = db.prepare('SELECT 1 FROM office_users WHERE email = ?').get(email) !== undefined;
          if (existed) {
            db.prepare('UPDATE office_users SET password_hash = ? WHERE email = ?').run(passwordHash, email);
            // A new password ends every session the old one opened.
            db.prepare('DELETE FROM office_sessions WHERE email = ?').run(email);
          } else db.prepare('INSERT INTO office_users (email, password_hash, created_at) VALUES (?, ?, ?)').run(email, passwordHash, iso(at));
          return !existed;
        }),
      ),
    removeUser: (email) =>
      guard(() =>
        inTransaction(() => {
          db.prepare('DELETE FROM office_sessions WHERE email = ?').run(email);
          return Number(db.prepare('DELETE FROM office_users WHERE email = ?').run(email).changes) > 0;
        }),
      ),
    listUsers: () =>
      guard(() =>
        (db.prepare('SELECT email, created_at, last_sign_in_at FROM office_users ORDER BY email').all() as Array<Record<string, string | null>>).map((r) => ({
          email: r.email!,
          createdAt: new Date(r.created_at!),
          lastSignInAt: r.last_sign_in_at ? new Date(r.last_sign_in_at) : undefined,
        })),
      ),
    passwordHash: (email) =>
      guard(() => (db.prepare('SELECT password_hash FROM office_users WHERE email = ?').get(email) as { password_hash: string } | undefined)?.password_hash),

    startSession: (tokenHash, email, at) =>
      guard(() =>
        inTransaction(() => {
          db.prepare('INSERT INTO office_sessions (token_hash, email, created_at, last_seen_at) VALUES (?, ?, ?, ?)').run(tokenHash, email, iso(at), iso(at));
          db.prepare('UPDATE office_users SET last_sign_in_at = ? WHERE email = ?').run(iso(at), email);
        }),
      ),
    touchSession: (tokenHash, since, now) =>
      guard(() => {
        const row = db
          .prepare('UPDATE office_sessions SET last_seen_at = ? WHERE token_hash = ? AND last_seen_at >= ? AND created_at >= ? RETURNING email')
          .get(iso(now), tokenHash, iso(since.seenSince), iso(since.startedSince)) as { email: string } | undefined;
        return row?.email;
      }),
    endSession: (tokenHash) => guard(() => void db.prepare('DELETE FROM office_sessions WHERE token_hash = ?').run(tokenHash)),

    inbox: (query: InboxQuery) =>
      guard(() => {
        const where: string[] = [];
        const params: Array<string | number> = [];
        const search = inboxSearch(query.search);
        if (search) {
          const any = ["office_fold(json_extract(fields, '$.name')) LIKE ? ESCAPE '\\'", "email_normalised LIKE ? ESCAPE '\\'"];
          params.push(search.text, search.text);
          if (search.reference) {
            any.push('reference LIKE ?');
            params.push(search.reference);
          }
          if (search.digits) {
            any.push("phone_e164 LIKE ? ESCAPE '\\'");
            params.push(search.digits);
          }
          where.push(`(${any.join(' OR ')})`);
        }
        for (const [condition, value] of [
          ['form_type = ?', query.form],
          ['status = ?', query.status],
          ['received_at >= ?', query.since && iso(query.since)],
          ['received_at < ?', query.until && iso(query.until)],
        ] as const)
          if (value !== undefined) {
            where.push(condition);
            params.push(value);
          }
        const sql = `SELECT * FROM leads ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY received_at DESC, id DESC LIMIT ? OFFSET ?`;
        const disclosureText = handle.disclosureTexts();
        return (db.prepare(sql).all(...params, query.limit, query.offset) as unknown as InboxRow[]).map((r) => ({
          lead: rowToLead(r, disclosureText),
          status: r.status,
          statusBy: r.status_by ?? undefined,
          statusAt: r.status_at ? new Date(r.status_at) : undefined,
        }));
      }),
    setStatus: (reference, status, by, at) =>
      guard(() =>
        inTransaction(() => {
          const row = db.prepare('SELECT status FROM leads WHERE reference = ?').get(reference) as { status: LeadStatus } | undefined;
          if (!row) return undefined;
          db.prepare('UPDATE leads SET status = ?, status_by = ?, status_at = ? WHERE reference = ?').run(status, by, iso(at), reference);
          return { from: row.status };
        }),
      ),
    personLeads: (match) =>
      guard(() => {
        const column = match.kind === 'email' ? 'email_normalised' : 'phone_e164';
        const disclosureText = handle.disclosureTexts();
        return (db.prepare(`SELECT * FROM leads WHERE ${column} = ? ORDER BY received_at DESC, id DESC`).all(match.value) as unknown as LeadRow[]).map((r) =>
          rowToLead(r, disclosureText),
        );
      }),

    keepSpam: (spam, person) =>
      guard(
        () =>
          void db
            .prepare(
              'INSERT INTO suspected_spam (id, reference, form_type, received_at, reason, submission, email_normalised, phone_e164) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
            )
            .run(
              spam.id,
              spam.reference,
              spam.formType,
              iso(spam.receivedAt),
              spam.reason,
              JSON.stringify({ body: spam.body, meta: spam.meta }),
              person.emailNormalised,
              person.phoneE164,
            ),
      ),
    listSpam: (limit) => guard(() => (db.prepare('SELECT * FROM suspected_spam ORDER BY received_at DESC, id LIMIT ?').all(limit) as SpamRow[]).map(toSpam)),
    findSpam: (id) =>
      guard(() => {
        const row = db.prepare('SELECT * FROM suspected_spam WHERE id = ?').get(id) as SpamRow | undefined;
        return row && toSpam(row);
      }),
    dropSpam: async (id) => {
      const dropped = await guard(() => Number(db.prepare('DELETE FROM suspected_spam WHERE id = ?').run(id).changes) > 0);
      if (dropped) await eraseFromWal();
      return dropped;
    },

    record: (entry: AuditEntry) =>
      guard(
        () =>
          void db
            .prepare('INSERT INTO office_audit (at, actor, action, detail) VALUES (?, ?, ?, ?)')
            .run(iso(entry.at), entry.actor, entry.action, entry.detail),
      ),
    recent: (limit) =>
      guard(() =>
        (db.prepare('SELECT at, actor, action, detail FROM office_audit ORDER BY at DESC, id DESC LIMIT ?').all(limit) as Array<Record<string, string>>).map(
          (r) => ({ at: new Date(r.at!), actor: r.actor!, action: r.action as AuditEntry['action'], detail: r.detail! }),
        ),
      ),
  };
}
