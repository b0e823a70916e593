/**
 * The PostgreSQL store's office roles: the staff's accounts and sessions (shared by every
 * instance), the inbox with each lead's status, suspected spam kept aside, and the audit trail.
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
import { rowToLead, type LeadRow, type PostgresHandle } from './handle.ts';

type InboxRow = LeadRow & { status: LeadStatus; status_by: string | null; status_at: Date | null };
type SpamRow = {
  id: string;
  reference: string;
  form_type: SuspectedSpam['formType'];
  received_at: Date;
  reason: SuspectedSpam['reason'];
  submission: Pick<SuspectedSpam, 'body' | 'meta'>;
};

const toSpam = (r: SpamRow): SuspectedSpam => ({
  id: r.id,
  reference: r.reference,
  formType: r.form_type,
  receivedAt: r.received_at,
  reason: r.reason,
  body: r.submission.body,
  meta: r.submission.meta,
});

const WITH_DISCLOSURE = `SELECT leads.*, disclosures.text AS disclosure_text FROM leads LEFT JOIN disclosures ON disclosures.version = leads.consent->>'disclosureVersion'`;

/** The office's roles on `handle`. */
export function postgresOffice(handle: PostgresHandle): OfficeAccounts & OfficeSessions & OfficeInbox & SpamFolder & AuditTrail {
  const { pool, transaction, unavailable } = handle;
  const query = <R extends object>(sql: string, params: unknown[] = []) => pool.query<R>(sql, params).catch(unavailable);

  return {
    saveUser: (email, passwordHash, at) =>
      transaction(async (c) => {
        const { rows } = await c.query<{ inserted: boolean }>(
          `INSERT INTO office_users (email, password_hash, created_at) VALUES ($1, $2, $3)
           ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash RETURNING (xmax = 0) AS inserted`,
          [email, passwordHash, at],
        );
        // A new password ends every session the old one opened.
        if (!rows[0]!.inserted) await c.query('DELETE FROM office_sessions WHERE email = $1', [email]);
        return rows[0]!.inserted;
      }),
    removeUser: (email) =>
      transaction(async (c) => {
        await c.query('DELETE FROM office_sessions WHERE email = $1', [email]);
        return ((await c.query('DELETE FROM office_users WHERE email = $1', [email])).rowCount ?? 0) > 0;
      }),
    listUsers: async () =>
      (
        await query<{ email: string; created_at: Date; last_sign_in_at: Date | null }>(
          'SELECT email, created_at, last_sign_in_at FROM office_users ORDER BY email',
        )
      ).rows.map((r) => ({ email: r.email, createdAt: r.created_at, lastSignInAt: r.last_sign_in_at ?? undefined })),
    passwordHash: async (email) =>
      (await query<{ password_hash: string }>('SELECT password_hash FROM office_users WHERE email = $1', [email])).rows[0]?.password_hash,

    startSession: (tokenHash, email, at) =>
      transaction(async (c) => {
        await c.query('INSERT INTO office_sessions (token_hash, email, created_at, last_seen_at) VALUES ($1, $2, $3, $3)', [tokenHash, email, at]);
        await c.query('UPDATE office_users SET last_sign_in_at = $2 WHERE email = $1', [email, at]);
      }),
    touchSession: async (tokenHash, since, now) =>
      (
        await query<{ email: string }>(
          'UPDATE office_sessions SET last_seen_at = $4 WHERE token_hash = $1 AND last_seen_at >= $2 AND created_at >= $3 RETURNING email',
          [tokenHash, since.seenSince, since.startedSince, now],
        )
      ).rows[0]?.email,
    endSession: async (tokenHash) => void (await query('DELETE FROM office_sessions WHERE token_hash = $1', [tokenHash])),

    inbox: async (q: InboxQuery) => {
      const where: string[] = [];
      const params: unknown[] = [];
      const param = (value: unknown) => `$${params.push(value)}`;
      const search = inboxSearch(q.search);
      if (search) {
        const any = [
          `lower(leads.fields->>'name') LIKE ${param(search.text)}`,
          `leads.email_normalised LIKE ${param(search.text)}`,
          ...(search.reference ? [`leads.reference LIKE ${param(search.reference)}`] : []),
          ...(search.digits ? [`leads.phone_e164 LIKE ${param(search.digits)}`] : []),
        ];
        where.push(`(${any.join(' OR ')})`);
      }
      if (q.form) where.push(`leads.form_type = ${param(q.form)}`);
      if (q.status) where.push(`leads.status = ${param(q.status)}`);
      if (q.since) where.push(`leads.received_at >= ${param(q.since)}`);
      if (q.until) where.push(`leads.received_at < ${param(q.until)}`);
      const sql = `${WITH_DISCLOSURE} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY leads.received_at DESC, leads.id DESC LIMIT ${param(q.limit)} OFFSET ${param(q.offset)}`;
      return (await query<InboxRow>(sql, params)).rows.map((r) => ({
        lead: rowToLead(r),
        status: r.status,
        statusBy: r.status_by ?? undefined,
        statusAt: r.status_at ?? undefined,
      }));
    },
    setStatus: (reference, status, by, at) =>
      transaction(async (c) => {
        const { rows } = await c.query<{ status: LeadStatus }>('SELECT status FROM leads WHERE reference = $1 FOR UPDATE', [reference]);
        if (!rows[0]) return undefined;
        await c.query('UPDATE leads SET status = $2, status_by = $3, status_at = $4 WHERE reference = $1', [reference, status, by, at]);
        return { from: rows[0].status };
      }),
    personLeads: async (match) => {
      const column = match.kind === 'email' ? 'email_normalised' : 'phone_e164';
      return (await query<LeadRow>(`${WITH_DISCLOSURE} WHERE leads.${column} = $1 ORDER BY leads.received_at DESC, leads.id DESC`, [match.value])).rows.map(
        rowToLead,
      );
    },

    keepSpam: async (spam, person) =>
      void (await query(
        'INSERT INTO suspected_spam (id, reference, form_type, received_at, reason, submission, email_normalised, phone_e164) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [
          spam.id,
          spam.reference,
          spam.formType,
          spam.receivedAt,
          spam.reason,
          JSON.stringify({ body: spam.body, meta: spam.meta }),
          person.emailNormalised,
          person.phoneE164,
        ],
      )),
    listSpam: async (limit) => (await query<SpamRow>('SELECT * FROM suspected_spam ORDER BY received_at DESC, id LIMIT $1', [limit])).rows.map(toSpam),
    findSpam: async (id) => {
      const row = (await query<SpamRow>('SELECT * FROM suspected_spam WHERE id = $1', [id])).rows[0];
      return row && toSpam(row);
    },
    dropSpam: async (id) => ((await query('DELETE FROM suspected_spam WHERE id = $1', [id])).rowCount ?? 0) > 0,

    record: async (entry: AuditEntry) =>
      void (await query('INSERT INTO office_audit (at, actor, action, detail) VALUES ($1, $2, $3, $4)', [entry.at, entry.actor, entry.action, entry.detail])),
    recent: async (limit) =>
      (await query<AuditEntry>('SELECT at, actor, action, detail FROM office_audit ORDER BY at DESC, id DESC LIMIT $1', [limit])).rows.map((r) => ({
        at: r.at,
        actor: r.actor,
        action: r.action,
        detail: r.detail,
      })),
  };
}
