/**
 * The SQLite store's office roles: the inbox with each lead's status, suspected spam kept aside, and
 * the audit trail (the staff's accounts and sessions are `office-staff.ts`).
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
import type { TakeInTransaction } from './intake.ts';
import { searchText, spamSearchFacts } from '../../office/search.ts';
import { rowToLead, type LeadRow, type SqliteHandle } from './handle.ts';
import type { DayClock } from './office-days.ts';
import { givenMark, givenMarkActor, openOrder } from '../given-mark.ts';
import { inboxLeads, inboxWhere, samePerson, searchCondition, SPAM, toSpam, type InboxRow, type SpamRow } from './inbox-query.ts';

/** The condition of a list of suspected spam on the mark "not a customer" (`SpamQuery.notACustomer`), each part by its index (migration 21). */
const spamMarked = (marked: boolean | undefined) => (marked === undefined ? undefined : `dismissed_at IS ${marked ? 'NOT ' : ''}NULL`);

/** The office's roles on `handle`; `takeIn` takes a released submission in as the intake would. */
export function sqliteOffice(handle: SqliteHandle, takeIn: TakeInTransaction, clock: DayClock): Omit<OfficeInbox, 'exportInbox'> & SpamFolder & AuditTrail {
  const { db, guard, inTransaction, eraseFromWal, writeAudit } = handle;
  const iso = (d: Date) => d.toISOString();

  /** One form's changes to a lead, each with its audit line, in one transaction. */
  const workLead = (reference: string, work: LeadWork) =>
    guard(() =>
      inTransaction(() => {
        const row = db.prepare('SELECT id, status, received_at, owner FROM leads WHERE reference = ?').get(reference) as
          { id: string; status: LeadStatus; received_at: string; owner: string | null } | undefined;
        if (!row) return undefined;
        if (takenByAnother(work, row.owner)) return { from: row.status, owner: row.owner, takenBy: row.owner! };
        const changes = changesOf(work, row);
        // A lead given to its sender is no longer marked for them: they acted on it (migration 22).
        const actor = givenMarkActor(work);
        if (actor !== undefined) db.prepare('DELETE FROM lead_given_marks WHERE lead_id = ? AND account = ?').run(row.id, actor);
        if (work.status && changes.status) {
          const { to, by, at, audit } = work.status;
          db.prepare('UPDATE leads SET status = ?, status_by = ?, status_at = ? WHERE id = ?').run(to, by, iso(at), row.id);
          // The first contact: the first time the lead leaves "new", whoever and whenever; never moved after.
          // With its working minutes from receipt, for the promise chart's median (migration 18).
          if (to !== 'new')
            db.prepare('UPDATE leads SET first_contact_at = ?, first_contact_by = ?, first_contact_minutes = ? WHERE id = ? AND first_contact_at IS NULL').run(
              iso(at),
              by,
              clock.minutes(new Date(row.received_at), at),
              row.id,
            );
          writeAudit(audit(row.status));
        }
        if (work.owner && changes.owner) {
          db.prepare('UPDATE leads SET owner = ? WHERE id = ?').run(work.owner.to ?? null, row.id);
          // Given by another: marked for its new holder alone.
          const mark = givenMark(work.owner);
          db.prepare('DELETE FROM lead_given_marks WHERE lead_id = ?').run(row.id);
          if (mark)
            db.prepare('INSERT INTO lead_given_marks (lead_id, account, given_by, given_at) VALUES (?, ?, ?, ?)').run(row.id, mark.to, mark.by, iso(mark.at));
          writeAudit(work.owner.audit);
        }
        if (work.note) {
          const { note, audit } = work.note;
          db.prepare('INSERT INTO lead_notes (lead_id, at, author, text) VALUES (?, ?, ?, ?)').run(row.id, iso(note.at), note.by, note.text);
          writeAudit(audit);
        }
        return { from: row.status, owner: row.owner };
      }),
    );

  return {
    inbox: (query: InboxQuery) =>
      guard(() => {
        const params: Array<string | number> = [];
        // The waiting leads by urgency (from their own index, `leads_waiting`), or every lead newest first.
        const order = query.urgent ? 'answer_by, received_at, id' : query.open ? openOrder() : 'received_at DESC, id DESC';
        const sql = `SELECT * FROM leads ${inboxWhere(query, params)} ORDER BY ${order} LIMIT ? OFFSET ?`;
        return inboxLeads(handle, db.prepare(sql).all(...params, query.limit, query.offset) as unknown as InboxRow[], query.account);
      }),
    setStatus: (reference, status, by, at, audit) => workLead(reference, { status: { to: status, by, at, audit } }),
    addNote: async (reference, note, audit) => (await workLead(reference, { note: { note, audit } })) !== undefined,
    workLead,
    openedLead: (reference, account) =>
      guard(
        () =>
          void db.prepare('DELETE FROM lead_given_marks WHERE account = ? AND lead_id IN (SELECT id FROM leads WHERE reference = ?)').run(account, reference),
      ),
    samePerson: (people) => guard(() => samePerson(handle, people)),
    personLeads: (match) =>
      guard(() => {
        const column = match.kind === 'email' ? 'email_normalised' : 'phone_e164';
        const disclosureText = handle.disclosureTexts();
        return (db.prepare(`SELECT * FROM leads WHERE ${column} = ? ORDER BY received_at DESC, id DESC`).all(match.value) as unknown as LeadRow[]).map((r) =>
          rowToLead(r, disclosureText),
        );
      }),
    personSpam: (match) =>
      guard(() => {
        const column = match.kind === 'email' ? 'email_normalised' : 'phone_e164';
        return (db.prepare(`SELECT * FROM suspected_spam WHERE ${column} = ? ORDER BY received_at DESC, id`).all(match.value) as SpamRow[]).map(toSpam);
      }),

    keepSpam: (spam, person) =>
      guard(() =>
        inTransaction(() => {
          const facts = spamSearchFacts(spam, person);
          db.prepare(
            'INSERT INTO suspected_spam (id, reference, form_type, received_at, reason, submission, email_normalised, ' +
              'phone_e164, search_text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          ).run(
            spam.id,
            spam.reference,
            spam.formType,
            iso(spam.receivedAt),
            spam.reason,
            JSON.stringify({ body: spam.body, meta: spam.meta }),
            person.emailNormalised,
            person.phoneE164,
            searchText(facts),
          );
        }),
      ),
    listSpam: (query) =>
      guard(() => {
        const params: Array<string | number> = [];
        const where = [searchCondition(query.search, SPAM, params), spamMarked(query.notACustomer)].filter(Boolean);
        const sql = `SELECT * FROM suspected_spam ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY received_at DESC, id LIMIT ? OFFSET ?`;
        return (db.prepare(sql).all(...params, query.limit, query.offset) as SpamRow[]).map(toSpam);
      }),
    findSpam: (id) =>
      guard(() => {
        const row = db.prepare('SELECT * FROM suspected_spam WHERE id = ?').get(id) as SpamRow | undefined;
        return row && toSpam(row);
      }),
    releaseSpam: async (id, lead, audit) => {
      const released = await guard(() =>
        inTransaction((): SpamRelease | { kind: 'gone' } => {
          if (db.prepare('SELECT 1 FROM suspected_spam WHERE id = ?').get(id) === undefined) return { kind: 'gone' };
          const outcome = takeIn(lead, undefined);
          if (outcome.kind !== 'created' && outcome.kind !== 'duplicate') throw new Error(`a release cannot be ${outcome.kind}`);
          const taken: SpamRelease = outcome.kind === 'created' ? { kind: 'created', reference: outcome.receipt.reference } : outcome;
          db.prepare('DELETE FROM suspected_spam WHERE id = ?').run(id);
          writeAudit(audit(taken));
          return { kind: taken.kind, reference: taken.reference };
        }),
      );
      // The caught copy's bytes leave the log too.
      if (released.kind !== 'gone') await eraseFromWal();
      return released;
    },
    markNotACustomer: (id, mark, audit) =>
      guard(() =>
        inTransaction(() => {
          const row = db.prepare('SELECT reference, dismissed_at FROM suspected_spam WHERE id = ?').get(id) as
            { reference: string; dismissed_at: string | null } | undefined;
          if (!row) return undefined;
          const changed = (row.dismissed_at === null) === (mark !== undefined);
          if (changed) {
            db.prepare('UPDATE suspected_spam SET dismissed_at = ?, dismissed_by = ? WHERE id = ?').run(mark ? iso(mark.at) : null, mark?.by ?? null, id);
            writeAudit(audit(row.reference));
          }
          return { reference: row.reference, changed };
        }),
      ),

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
