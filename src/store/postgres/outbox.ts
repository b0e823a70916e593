/** The PostgreSQL store's outbox of the office's e-mail: claims that several instances share without overlap, attempts, and what is waiting. */
import type { Outbox, OutboxEntry } from '../../leads/store.ts';
import { rowToLead, type LeadRow, type PostgresHandle } from './handle.ts';

/** The outbox role on `handle`. */
export function postgresOutbox(handle: PostgresHandle): Outbox {
  const { pool, unavailable } = handle;
  return {
    claimNotifications: async (claim) => {
      // One statement: the due rows are locked, skipped by any other instance's claim, and claimed.
      const { rows } = await pool
        .query<LeadRow & { attempts: number }>(
          `WITH due AS (
           SELECT lead_id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= $3 AND (claimed_until IS NULL OR claimed_until <= $3)
           ORDER BY next_attempt_at LIMIT $4 FOR UPDATE SKIP LOCKED
         ), claimed AS (
           UPDATE outbox SET claimed_by = $1, claimed_until = $2 FROM due WHERE outbox.lead_id = due.lead_id RETURNING outbox.lead_id, outbox.attempts
         )
         SELECT leads.*, claimed.attempts, disclosures.text AS disclosure_text FROM claimed
         JOIN leads ON leads.id = claimed.lead_id
         LEFT JOIN disclosures ON disclosures.version = leads.consent->>'disclosureVersion'
         ORDER BY leads.received_at`,
          [claim.owner, claim.until, claim.now, claim.limit],
        )
        .catch(unavailable);
      return rows.map((row) => ({ lead: rowToLead(row), attempts: row.attempts }));
    },
    notificationSent: async (leadId, at) => {
      await pool
        .query(
          'UPDATE outbox SET sent_at = $1, attempts = attempts + 1, claimed_by = NULL, claimed_until = NULL, last_error = ' +
            'NULL WHERE lead_id = $2 AND sent_at IS NULL',
          [at, leadId],
        )
        .catch(unavailable);
    },
    notificationFailed: async (leadId, owner, retry) => {
      await pool
        .query(
          `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $1, last_error = $2, claimed_by = NULL, claimed_until = NULL
         WHERE lead_id = $3 AND claimed_by = $4 AND sent_at IS NULL`,
          [retry.at, retry.error, leadId, owner],
        )
        .catch(unavailable);
    },
    outboxStatus: async () => {
      const { rows } = await pool
        .query<{ waiting: string; failing: string; oldest: Date | null }>(
          'SELECT count(*) AS waiting, count(*) FILTER (WHERE attempts > 0) AS failing, min(created_at) AS oldest FROM outbox WHERE sent_at IS NULL',
        )
        .catch(unavailable);
      const row = rows[0]!;
      return { waiting: Number(row.waiting), failing: Number(row.failing), oldestWaiting: row.oldest ?? undefined };
    },
    waitingNotifications: async (limit) => {
      const { rows } = await pool
        .query<{ lead_id: string; form_type: OutboxEntry['formType']; received_at: Date; attempts: number; next_attempt_at: Date; last_error: string | null }>(
          `SELECT outbox.lead_id, leads.form_type, leads.received_at, outbox.attempts, outbox.next_attempt_at, outbox.last_error
         FROM outbox JOIN leads ON leads.id = outbox.lead_id WHERE outbox.sent_at IS NULL ORDER BY outbox.created_at, outbox.lead_id LIMIT $1`,
          [limit],
        )
        .catch(unavailable);
      return rows.map((r): OutboxEntry => ({
        leadId: r.lead_id,
        formType: r.form_type,
        receivedAt: r.received_at,
        attempts: r.attempts,
        nextAttemptAt: r.next_attempt_at,
        lastError: r.last_error,
      }));
    },
  };
}
