/**
 * The SQLite store's leads as the office and the privacy rules reach them: the export (streamed),
 * a person's leads counted and deleted on request with a deletion record, and the purge of what is
 * past its time, each deletion's bytes overwritten and the log emptied after it.
 */
import { ERASED_LEAD } from '../../office/audit-words.ts';
import type { Chosen, DeletionRecord, LeadFilter, LeadRecords, PersonMatch, Purged, Removed } from '../../leads/store.ts';
import { isLastPurgeStep } from '../../leads/retention.ts';
import { rowToLead, type LeadRow, type SqliteHandle } from './handle.ts';

/** Leads read at once by an export: a page in memory, and no read open between pages. */
const EXPORT_PAGE = 500;

const personColumn = (match: PersonMatch) => (match.kind === 'email' ? 'email_normalised' : 'phone_e164');

/** The condition on a table of the person's rows (leads, suspected spam) and its parameters: only those `ids` names, when given. */
const theirs = (match: PersonMatch, ids: readonly string[] | undefined): [string, string[]] =>
  ids
    ? [`${personColumn(match)} = ? AND id IN (SELECT value FROM json_each(?))`, [match.value, JSON.stringify(ids)]]
    : [`${personColumn(match)} = ?`, [match.value]];

/** The leads stored without an answer-by instant (by hand, or by a version that did not keep it): read by their own partial index. */
export const LEADS_WITHOUT_ANSWER_BY = 'SELECT id, received_at FROM leads WHERE answer_by IS NULL';

/** The records role on `handle`. */
export function sqliteRecords(handle: SqliteHandle): LeadRecords {
  const { db, guard, inTransaction, eraseFromWal, writeAudit } = handle;
  // Whether a purge step removed rows whose bytes the log may still hold: emptied by the purge's last step.
  let purgedSinceErase = false;

  function countPerson(match: PersonMatch, chosen?: Chosen): Removed {
    const [leads, leadParams] = theirs(match, chosen?.leads);
    const [spam, spamParams] = theirs(match, chosen?.suspectedSpam);
    const count = (sql: string, params: string[]) => Number((db.prepare(sql).get(...params) as { n: number }).n);
    return {
      leads: count(`SELECT count(*) AS n FROM leads WHERE ${leads}`, leadParams),
      idempotencyKeys: count(`SELECT count(*) AS n FROM idempotency_keys WHERE lead_id IN (SELECT id FROM leads WHERE ${leads})`, leadParams),
      fingerprints: count(`SELECT count(*) AS n FROM leads WHERE ${leads} AND fingerprint <> ''`, leadParams),
      suspectedSpam: count(`SELECT count(*) AS n FROM suspected_spam WHERE ${spam}`, spamParams),
      officeEmails: (
        db
          .prepare(`SELECT lead_id FROM outbox WHERE sent_at IS NOT NULL AND lead_id IN (SELECT id FROM leads WHERE ${leads}) ORDER BY lead_id`)
          .all(...leadParams) as Array<{ lead_id: string }>
      ).map((r) => r.lead_id),
    };
  }

  return {
    async *exportLeads(filter: LeadFilter = {}) {
      const disclosureText = handle.disclosureTexts();
      const conditions: Array<[string, string | undefined]> = [
        ['received_at >= ?', filter.since?.toISOString()],
        ['received_at < ?', filter.until?.toISOString()],
        ['form_type = ?', filter.form],
      ];
      const used = conditions.filter(([, value]) => value !== undefined);
      const page = db.prepare(
        `SELECT * FROM leads WHERE (received_at, id) > (?, ?) ${used.map(([c]) => `AND ${c}`).join(' ')} ORDER BY received_at, id LIMIT ${EXPORT_PAGE}`,
      );
      const params = used.map(([, value]) => value!);
      // Keyset pages, each read whole at once: no statement stays open while the reader is slow or
      // gone (an open read would hold off the checkpoint that erases deleted rows from the log).
      let after = ['', ''];
      for (;;) {
        const rows = (await guard(() => page.all(...after, ...params))) as unknown as LeadRow[];
        for (const row of rows) yield rowToLead(row, disclosureText);
        if (rows.length < EXPORT_PAGE) return;
        after = [rows.at(-1)!.received_at, rows.at(-1)!.id];
      }
    },
    countPerson: (match) => guard(() => countPerson(match)),
    deletePerson: async (match, record, audit, chosen) => {
      const removed = await guard(() =>
        inTransaction(() => {
          const removed = countPerson(match, chosen);
          if (chosen) {
            const all = countPerson(match);
            removed.kept = { leads: all.leads - removed.leads, suspectedSpam: all.suspectedSpam - removed.suspectedSpam };
          }
          const [leads, leadParams] = theirs(match, chosen?.leads);
          const [spam, spamParams] = theirs(match, chosen?.suspectedSpam);
          // The office's audit trail names leads by reference: an erased person's become `ERASED_LEAD`.
          const references = db
            .prepare(`SELECT reference FROM leads WHERE ${leads} UNION SELECT reference FROM suspected_spam WHERE ${spam}`)
            .all(...leadParams, ...spamParams) as Array<{ reference: string }>;
          const forget = db.prepare('UPDATE office_audit SET detail = replace(detail, ?, ?) WHERE instr(detail, ?) > 0');
          for (const { reference } of references) forget.run(reference, ERASED_LEAD, reference);
          db.prepare(`DELETE FROM idempotency_keys WHERE lead_id IN (SELECT id FROM leads WHERE ${leads})`).run(...leadParams);
          db.prepare(`DELETE FROM leads WHERE ${leads}`).run(...leadParams);
          db.prepare(`DELETE FROM suspected_spam WHERE ${spam}`).run(...spamParams);
          // What the office typed to find them may have been their name or address: every kept search goes.
          db.prepare('DELETE FROM office_searches').run();
          // So may a change held through a sign-in (a note on one of their leads).
          db.prepare('DELETE FROM office_held_changes').run();
          db.prepare('INSERT INTO deletion_records (identifier_kind, deleted_at, lead_count) VALUES (?, ?, ?)').run(
            record.kind,
            record.deletedAt.toISOString(),
            removed.leads,
          );
          if (audit) writeAudit(audit(removed));
          return removed;
        }),
      );
      // The answer waits for the log's emptying only briefly: a reader that holds it off longer
      // leaves it to the background attempts (`eraseFromWal`), and the deletion stands.
      await eraseFromWal();
      return removed;
    },
    deletionRecords: () =>
      guard(() =>
        (
          db.prepare('SELECT identifier_kind, deleted_at, lead_count FROM deletion_records ORDER BY deleted_at, id').all() as Array<{
            identifier_kind: DeletionRecord['kind'];
            deleted_at: string;
            lead_count: number;
          }>
        ).map((r) => ({ kind: r.identifier_kind, deletedAt: new Date(r.deleted_at), leads: r.lead_count })),
      ),
    purgeStep: async (step) => {
      const purged = await guard(() =>
        inTransaction((): Purged => {
          const before = (d: Date) => d.toISOString();
          const changes = (sql: string, ...params: Array<string | number>) => Number(db.prepare(sql).run(...params).changes);
          let idempotencyKeys = changes(
            'DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE created_at < ? LIMIT ?)',
            before(step.replayBefore),
            step.limit,
          );
          // A fingerprint serves the 24-hour duplicate rule only: it is cleared from the lead afterwards.
          // Found through the fingerprints' own index, which skips the cleared ones: by received_at, a
          // step walked every older lead (40 ms at 100,000).
          const fingerprints = changes(
            "UPDATE leads SET fingerprint = '' WHERE id IN " +
              "(SELECT id FROM leads INDEXED BY leads_by_fingerprint WHERE fingerprint > '' AND received_at < ? LIMIT ?)",
            before(step.replayBefore),
            step.limit,
          );
          const old = `SELECT id FROM leads WHERE received_at < ? LIMIT ?`;
          idempotencyKeys += changes(`DELETE FROM idempotency_keys WHERE lead_id IN (${old})`, before(step.leadsBefore), step.limit);
          const leads = changes(`DELETE FROM leads WHERE id IN (${old})`, before(step.leadsBefore), step.limit);
          const deletionRecords = changes(
            'DELETE FROM deletion_records WHERE id IN (SELECT id FROM deletion_records WHERE deleted_at < ? LIMIT ?)',
            before(step.deletionRecordsBefore),
            step.limit,
          );
          const expired = (table: string, column: string, cutoff: Date) =>
            changes(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${column} < ? LIMIT ?)`, before(cutoff), step.limit);
          const suspectedSpam = expired('suspected_spam', 'received_at', step.spamBefore);
          const auditEntries = expired('office_audit', 'at', step.deletionRecordsBefore);
          // Ended sessions, and changes held through a sign-in for longer than any session stays idle.
          const sessions = expired('office_sessions', 'last_seen_at', step.sessionsBefore) + expired('office_held_changes', 'created_at', step.sessionsBefore);
          return { leads, idempotencyKeys, fingerprints, deletionRecords, suspectedSpam, auditEntries, sessions };
        }),
      );
      if (purged.leads > 0 || purged.fingerprints > 0 || purged.suspectedSpam > 0) purgedSinceErase = true;
      // Once a purge, at its end: emptying the log after each step cost more than the step's deletions.
      if (purgedSinceErase && isLastPurgeStep(purged, step.limit)) {
        purgedSinceErase = false;
        await eraseFromWal();
      }
      return purged;
    },
    keepAnswerBy: (answerOf) =>
      guard(() => {
        const rows = db.prepare(LEADS_WITHOUT_ANSWER_BY).all() as Array<{ id: string; received_at: string }>;
        const keep = db.prepare('UPDATE leads SET answer_by = ? WHERE id = ? AND answer_by IS NULL');
        if (rows.length > 0) inTransaction(() => rows.forEach((r) => keep.run(answerOf(new Date(r.received_at)).toISOString(), r.id)));
        return rows.length;
      }),
  };
}
