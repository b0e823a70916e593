/**
 * The PostgreSQL store's office roles: the inbox with each lead's status, suspected spam kept aside,
 * and the audit trail (the staff's accounts and sessions are `office-staff.ts`).
 */
import {
  changesOf,
  takenByAnother,
  type AuditEntry,
  type AuditTrail,
  type InboxQuery,
  type LeadStatus,
  type LeadWork,
  type OfficeInbox,
  type SpamFolder,
  type SpamRelease,
} from '../../office/store.ts';
import { REPLAY_WINDOW_MS } from '../../leads/store.ts';
import { Lost, type TakeInTransaction } from './intake.ts';
import { searchText, spamSearchFacts } from '../../office/search.ts';
import { rowToLead, type LeadRow, type PostgresHandle, writeAudit } from './handle.ts';
import type { MinutesClock } from './office-clock.ts';
import { givenMark, givenMarkActor, openOrder } from '../given-mark.ts';
import { inboxLeads, inboxWhere, samePerson, searchCondition, SPAM, toSpam, WITH_DISCLOSURE, type InboxRow, type SpamRow } from './inbox-query.ts';

/** The condition of a list of suspected spam on the mark "not a customer" (`SpamQuery.notACustomer`), each part by its index (migration 21). */
const spamMarked = (marked: boolean | undefined) => (marked === undefined ? undefined : `dismissed_at IS ${marked ? 'NOT ' : ''}NULL`);

/** The office's roles on `handle`; `takeIn` takes a released submission in as the intake would. */
export function postgresOffice(
  handle: PostgresHandle,
  takeIn: TakeInTransaction,
  clock: MinutesClock,
): Omit<OfficeInbox, 'exportInbox'> & SpamFolder & AuditTrail {
  const { pool, transaction, unavailable } = handle;
  const query = <R extends object>(sql: string, params: unknown[] = []) => pool.query<R>(sql, params).catch(unavailable);

  /** One form's changes to a lead, each with its audit line, in one transaction (the lead's row locked). */
  const workLead = (reference: string, work: LeadWork) =>
    transaction(async (c) => {
      const { rows } = await c.query<{ id: string; status: LeadStatus; received_at: Date; owner: string | null }>(
        'SELECT id, status, received_at, owner FROM leads WHERE reference = $1 FOR UPDATE',
        [reference],
      );
      const row = rows[0];
      if (!row) return undefined;
      if (takenByAnother(work, row.owner)) return { from: row.status, owner: row.owner, takenBy: row.owner! };
      const changes = changesOf(work, row);
      // A lead given to its sender is no longer marked for them: they acted on it (migration 22).
      const actor = givenMarkActor(work);
      if (actor !== undefined) await c.query('DELETE FROM lead_given_marks WHERE lead_id = $1 AND account = $2', [row.id, actor]);
      if (work.status && changes.status) {
        const { to, by, at, audit } = work.status;
        await c.query('UPDATE leads SET status = $2, status_by = $3, status_at = $4 WHERE id = $1', [row.id, to, by, at]);
        // The first contact: the first time the lead leaves "new", whoever and whenever; never moved after.
        // With its working minutes from receipt, for the promise chart's median (migration 18).
        if (to !== 'new')
          await c.query(
            'UPDATE leads SET first_contact_at = $2, first_contact_by = $3, first_contact_minutes = $4 WHERE id = $1 AND first_contact_at IS NULL',
            [row.id, at, by, clock.minutes(row.received_at, at)],
          );
        await writeAudit(c, audit(row.status));
      }
      if (work.owner && changes.owner) {
        await c.query('UPDATE leads SET owner = $2 WHERE id = $1', [row.id, work.owner.to ?? null]);
        // Given by another: marked for its new holder alone.
        const mark = givenMark(work.owner);
        await c.query('DELETE FROM lead_given_marks WHERE lead_id = $1', [row.id]);
        if (mark)
          await c.query('INSERT INTO lead_given_marks (lead_id, account, given_by, given_at) VALUES ($1, $2, $3, $4)', [row.id, mark.to, mark.by, mark.at]);
        await writeAudit(c, work.owner.audit);
      }
      if (work.note) {
        const { note, audit } = work.note;
        await c.query('INSERT INTO lead_notes (lead_id, at, author, text) VALUES ($1, $2, $3, $4)', [row.id, note.at, note.by, note.text]);
        await writeAudit(c, audit);
      }
      return { from: row.status, owner: row.owner };
    });

  return {
    inbox: async (q: InboxQuery) => {
      const params: unknown[] = [];
      const param = (value: unknown) => `$${params.push(value)}`;
      const order = q.urgent ? 'leads.answer_by, leads.received_at, leads.id' : q.open ? openOrder('leads.') : 'leads.received_at DESC, leads.id DESC';
      const sql = `${WITH_DISCLOSURE} ${inboxWhere(q, param)} ORDER BY ${order} LIMIT ${param(q.limit)} OFFSET ${param(q.offset)}`;
      return inboxLeads(handle, (await query<InboxRow>(sql, params)).rows, q.account);
    },
    setStatus: (reference, status, by, at, audit) => workLead(reference, { status: { to: status, by, at, audit } }),
    addNote: async (reference, note, audit) => (await workLead(reference, { note: { note, audit } })) !== undefined,
    workLead,
    openedLead: async (reference, account) =>
      void (await query('DELETE FROM lead_given_marks WHERE account = $1 AND lead_id IN (SELECT id FROM leads WHERE reference = $2)', [account, reference])),
    samePerson: (people) => samePerson(handle, people),
    personLeads: async (match) => {
      const column = match.kind === 'email' ? 'email_normalised' : 'phone_e164';
      return (await query<LeadRow>(`${WITH_DISCLOSURE} WHERE leads.${column} = $1 ORDER BY leads.received_at DESC, leads.id DESC`, [match.value])).rows.map(
        rowToLead,
      );
    },

    personSpam: async (match) => {
      const column = match.kind === 'email' ? 'email_normalised' : 'phone_e164';
      return (await query<SpamRow>(`SELECT * FROM suspected_spam WHERE ${column} = $1 ORDER BY received_at DESC, id`, [match.value])).rows.map(toSpam);
    },

    keepSpam: (spam, person) =>
      transaction(async (c) => {
        const facts = spamSearchFacts(spam, person);
        await c.query(
          'INSERT INTO suspected_spam (id, reference, form_type, received_at, reason, submission, email_normalised, ' +
            'phone_e164, search_text) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
          [
            spam.id,
            spam.reference,
            spam.formType,
            spam.receivedAt,
            spam.reason,
            JSON.stringify({ body: spam.body, meta: spam.meta }),
            person.emailNormalised,
            person.phoneE164,
            searchText(facts),
          ],
        );
      }),
    listSpam: async (q) => {
      const params: unknown[] = [];
      const param = (value: unknown) => `$${params.push(value)}`;
      const where = [searchCondition(q.search, SPAM, param), spamMarked(q.notACustomer)].filter(Boolean);
      const sql =
        `SELECT * FROM suspected_spam ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY received_at DESC, id LIMIT ` +
        `${param(q.limit)} OFFSET ${param(q.offset)}`;
      return (await query<SpamRow>(sql, params)).rows.map(toSpam);
    },
    findSpam: async (id) => {
      const row = (await query<SpamRow>('SELECT * FROM suspected_spam WHERE id = $1', [id])).rows[0];
      return row && toSpam(row);
    },
    releaseSpam: async (id, lead, audit) => {
      // A lead with the same fingerprint stored meanwhile by another instance wins: the release is
      // then tried again once, and finds it a duplicate.
      for (let attempt = 0; ; attempt++) {
        try {
          return await transaction(async (c): Promise<SpamRelease | { kind: 'gone' }> => {
            if (((await c.query('SELECT 1 FROM suspected_spam WHERE id = $1 FOR UPDATE', [id])).rowCount ?? 0) === 0) return { kind: 'gone' };
            const since = new Date(Date.parse(lead.receivedAt) - REPLAY_WINDOW_MS);
            const earlier = await c.query<{ reference: string }>(
              'SELECT leads.reference FROM lead_fingerprints JOIN leads ON leads.id = lead_id WHERE ' +
                'lead_fingerprints.fingerprint = $1 AND lead_fingerprints.received_at > $2',
              [lead.fingerprint, since],
            );
            const taken: SpamRelease = earlier.rows[0]
              ? { kind: 'duplicate', reference: earlier.rows[0].reference }
              : { kind: 'created', reference: (await takeIn(c, lead, undefined)).receipt.reference };
            await c.query('DELETE FROM suspected_spam WHERE id = $1', [id]);
            await writeAudit(c, audit(taken));
            return taken;
          });
        } catch (err) {
          if (!(err instanceof Lost) || attempt > 0) throw err;
        }
      }
    },

    markNotACustomer: (id, mark, audit) =>
      transaction(async (c) => {
        const row = (
          await c.query<{ reference: string; dismissed_at: Date | null }>('SELECT reference, dismissed_at FROM suspected_spam WHERE id = $1 FOR UPDATE', [id])
        ).rows[0];
        if (!row) return undefined;
        const changed = (row.dismissed_at === null) === (mark !== undefined);
        if (changed) {
          await c.query('UPDATE suspected_spam SET dismissed_at = $2, dismissed_by = $3 WHERE id = $1', [id, mark?.at ?? null, mark?.by ?? null]);
          await writeAudit(c, audit(row.reference));
        }
        return { reference: row.reference, changed };
      }),

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
