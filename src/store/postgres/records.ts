/**
 * The PostgreSQL store's leads as the office and the privacy rules reach them: the export (keyset
 * pages), a person's leads counted and deleted on request with a deletion record, and the purge of
 * what is past its time, in short transactions that instances purging at once never wait on.
 */
import pg from 'pg';
import { ERASED_LEAD } from '../../office/audit-words.ts';
import type { Chosen, DeletionRecord, LeadFilter, LeadRecords, PersonMatch, Removed } from '../../leads/store.ts';
import { rowToLead, type LeadRow, type PostgresHandle, writeAudit } from './handle.ts';

const personColumn = (match: PersonMatch) => (match.kind === 'email' ? 'email_normalised' : 'phone_e164');

/** The condition on a table of the person's rows (leads, suspected spam) and its parameters: only those `ids` names, when given. */
const theirs = (match: PersonMatch, ids: readonly string[] | undefined): [string, unknown[]] =>
  ids ? [`${personColumn(match)} = $1 AND id = ANY($2::text[])`, [match.value, ids]] : [`${personColumn(match)} = $1`, [match.value]];

/** The records role on `handle`. */
export function postgresRecords(handle: PostgresHandle): LeadRecords {
  const { pool, transaction, unavailable } = handle;

  async function countPerson(c: pg.PoolClient, match: PersonMatch, chosen?: Chosen): Promise<Removed> {
    const [leads, leadParams] = theirs(match, chosen?.leads);
    const [spam, spamParams] = theirs(match, chosen?.suspectedSpam);
    const count = async (sql: string, params: unknown[]) => Number((await c.query<{ n: string }>(sql, params).catch(unavailable)).rows[0]!.n);
    const ids = `SELECT id FROM leads WHERE ${leads}`;
    return {
      leads: await count(`SELECT count(*) AS n FROM (${ids}) AS l`, leadParams),
      idempotencyKeys: await count(`SELECT count(*) AS n FROM idempotency_keys WHERE lead_id IN (${ids})`, leadParams),
      fingerprints: await count(`SELECT count(*) AS n FROM lead_fingerprints WHERE lead_id IN (${ids})`, leadParams),
      suspectedSpam: await count(`SELECT count(*) AS n FROM suspected_spam WHERE ${spam}`, spamParams),
      officeEmails: (
        await c
          .query<{ lead_id: string }>(`SELECT lead_id FROM outbox WHERE sent_at IS NOT NULL AND lead_id IN (${ids}) ORDER BY lead_id`, leadParams)
          .catch(unavailable)
      ).rows.map((r) => r.lead_id),
    };
  }

  return {
    async *exportLeads(filter: LeadFilter = {}) {
      // Keyset pages, so that an export of any size holds one page in memory at a time.
      let after: [Date, string] = [new Date(0), ''];
      const range = [filter.since ?? new Date(0), filter.until ?? new Date('9999-12-31T00:00:00Z'), filter.form ?? null];
      for (;;) {
        const { rows } = await pool
          .query<LeadRow>(
            `SELECT leads.*, disclosures.text AS disclosure_text FROM leads
           LEFT JOIN disclosures ON disclosures.version = leads.consent->>'disclosureVersion'
           WHERE (received_at, id) > ($1, $2) AND received_at >= $3 AND received_at < $4 AND ($5::text IS NULL OR form_type = $5)
           ORDER BY received_at, id LIMIT 500`,
            [...after, ...range],
          )
          .catch(unavailable);
        for (const row of rows) yield rowToLead(row);
        if (rows.length < 500) return;
        after = [rows.at(-1)!.received_at, rows.at(-1)!.id];
      }
    },
    countPerson: async (match) => {
      const client = await pool.connect().catch(unavailable);
      try {
        return await countPerson(client, match);
      } finally {
        client.release();
      }
    },
    deletePerson: (match, record, audit, chosen) =>
      transaction(async (c) => {
        const [leads, leadParams] = theirs(match, chosen?.leads);
        const [spam, spamParams] = theirs(match, chosen?.suspectedSpam);
        // The person's leads are locked first, in the order a purge takes them (leads, then their
        // records), so that an erasure and a purge never wait for each other in a cycle.
        await c.query(`SELECT id FROM leads WHERE ${personColumn(match)} = $1 FOR UPDATE`, [match.value]);
        const removed = await countPerson(c, match, chosen);
        if (chosen) {
          const all = await countPerson(c, match);
          removed.kept = { leads: all.leads - removed.leads, suspectedSpam: all.suspectedSpam - removed.suspectedSpam };
        }
        const ids = `SELECT id FROM leads WHERE ${leads}`;
        // The office's audit trail names leads by reference: an erased person's become `ERASED_LEAD`.
        const references = [
          ...(await c.query<{ reference: string }>(`SELECT reference FROM leads WHERE ${leads}`, leadParams)).rows,
          ...(await c.query<{ reference: string }>(`SELECT reference FROM suspected_spam WHERE ${spam}`, spamParams)).rows,
        ];
        for (const { reference } of references)
          await c.query('UPDATE office_audit SET detail = replace(detail, $1, $2) WHERE strpos(detail, $1) > 0', [reference, ERASED_LEAD]);
        await c.query(`DELETE FROM idempotency_keys WHERE lead_id IN (${ids})`, leadParams);
        await c.query(`DELETE FROM lead_fingerprints WHERE lead_id IN (${ids})`, leadParams);
        await c.query(`DELETE FROM leads WHERE ${leads}`, leadParams);
        await c.query(`DELETE FROM suspected_spam WHERE ${spam}`, spamParams);
        // What the office typed to find them may have been their name or address: every kept search goes.
        await c.query('DELETE FROM office_searches');
        // So may a change held through a sign-in (a note on one of their leads).
        await c.query('DELETE FROM office_held_changes');
        await c.query('INSERT INTO deletion_records (identifier_kind, deleted_at, lead_count) VALUES ($1, $2, $3)', [
          record.kind,
          record.deletedAt,
          removed.leads,
        ]);
        if (audit) await writeAudit(c, audit(removed));
        return removed;
      }),
    deletionRecords: async () => {
      const { rows } = await pool
        .query<{ identifier_kind: DeletionRecord['kind']; deleted_at: Date; lead_count: number }>(
          'SELECT identifier_kind, deleted_at, lead_count FROM deletion_records ORDER BY deleted_at, id',
        )
        .catch(unavailable);
      return rows.map((r) => ({ kind: r.identifier_kind, deletedAt: r.deleted_at, leads: r.lead_count }));
    },
    purgeStep: async (step) => {
      // SKIP LOCKED: instances purging at once take different rows. Two short transactions: the first
      // only skips what others hold and so never waits; the second may wait for a first one, which
      // waits for nothing, so no cycle (one transaction doing both deadlocked with four openings).
      const changes = (c: pg.PoolClient) => async (sql: string, params: unknown[]) => (await c.query(sql, params)).rowCount ?? 0;
      const expired = (table: string, column: string, key = 'id') =>
        `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE ${column} < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`;
      const dayOld = await transaction(async (c) => {
        const run = changes(c);
        const idempotencyKeys = await run(expired('idempotency_keys', 'created_at', 'key'), [step.replayBefore, step.limit]);
        const fingerprints = await run(expired('lead_fingerprints', 'received_at', 'fingerprint'), [step.replayBefore, step.limit]);
        await run(
          "UPDATE leads SET fingerprint = '' WHERE id IN (SELECT id FROM leads WHERE received_at < $1 AND fingerprint <> '' LIMIT $2 FOR UPDATE SKIP LOCKED)",
          [step.replayBefore, step.limit],
        );
        const deletionRecords = await run(expired('deletion_records', 'deleted_at'), [step.deletionRecordsBefore, step.limit]);
        const suspectedSpam = await run(expired('suspected_spam', 'received_at'), [step.spamBefore, step.limit]);
        const auditEntries = await run(expired('office_audit', 'at'), [step.deletionRecordsBefore, step.limit]);
        // Ended sessions, and changes held through a sign-in for longer than any session stays idle.
        const sessions =
          (await run(expired('office_sessions', 'last_seen_at', 'token_hash'), [step.sessionsBefore, step.limit])) +
          (await run(expired('office_held_changes', 'created_at', 'handle_hash'), [step.sessionsBefore, step.limit]));
        return { idempotencyKeys, fingerprints, deletionRecords, suspectedSpam, auditEntries, sessions };
      });
      const pastRetention = await transaction(async (c) => {
        const run = changes(c);
        const { rows } = await c.query<{ id: string }>('SELECT id FROM leads WHERE received_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED', [
          step.leadsBefore,
          step.limit,
        ]);
        const ids = rows.map((r) => r.id);
        const idempotencyKeys = await run('DELETE FROM idempotency_keys WHERE lead_id = ANY($1)', [ids]);
        const fingerprints = await run('DELETE FROM lead_fingerprints WHERE lead_id = ANY($1)', [ids]);
        const leads = await run('DELETE FROM leads WHERE id = ANY($1)', [ids]);
        return { leads, idempotencyKeys, fingerprints };
      });
      return {
        leads: pastRetention.leads,
        idempotencyKeys: dayOld.idempotencyKeys + pastRetention.idempotencyKeys,
        fingerprints: dayOld.fingerprints + pastRetention.fingerprints,
        deletionRecords: dayOld.deletionRecords,
        suspectedSpam: dayOld.suspectedSpam,
        auditEntries: dayOld.auditEntries,
        sessions: dayOld.sessions,
      };
    },
    keepAnswerBy: async (answerOf) => {
      const { rows } = await pool.query<{ id: string; received_at: Date }>('SELECT id, received_at FROM leads WHERE answer_by IS NULL').catch(unavailable);
      for (let i = 0; i < rows.length; i += 1000) {
        const batch = rows.slice(i, i + 1000);
        await pool
          .query(
            `UPDATE leads SET answer_by = v.at FROM unnest($1::text[], $2::timestamptz[]) AS v (id, at)
             WHERE leads.id = v.id AND leads.answer_by IS NULL`,
            [batch.map((r) => r.id), batch.map((r) => answerOf(r.received_at))],
          )
          .catch(unavailable);
      }
      return rows.length;
    },
  };
}
