/**
 * The SQLite store's outbox of the office's e-mail: claims for one sender at a time (written only
 * when something is due, so that an idle sender's poll is a read), sent and failed attempts, and
 * what is waiting, for the office's command.
 */
import type { OutboxEntry, Outbox } from '../../leads/store.ts';
import { rowToLead, type LeadRow, type SqliteHandle } from './handle.ts';

/** The outbox role on `handle`. */
export function sqliteOutbox(handle: SqliteHandle): Outbox {
  const { db, guard } = handle;
  const anyDue = db.prepare('SELECT 1 FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?) LIMIT 1');
  const claimDue = db.prepare(
    `UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE lead_id IN (
       SELECT lead_id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
       ORDER BY next_attempt_at LIMIT ?)
     RETURNING lead_id, attempts`,
  );
  const selectLead = db.prepare('SELECT * FROM leads WHERE id = ?');
  const markSent = db.prepare(
    'UPDATE outbox SET sent_at = ?, attempts = attempts + 1, claimed_by = NULL, claimed_until = NULL, last_error = NULL WHERE lead_id = ? AND sent_at IS NULL',
  );
  const markFailed = db.prepare(
    `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?, claimed_by = NULL, claimed_until = NULL
     WHERE lead_id = ? AND claimed_by = ? AND sent_at IS NULL`,
  );
  const selectOutboxStatus = db.prepare(
    'SELECT count(*) AS waiting, count(*) FILTER (WHERE attempts > 0) AS failing, min(created_at) AS oldest FROM outbox WHERE sent_at IS NULL',
  );
  const selectWaiting = db.prepare(
    `SELECT outbox.lead_id, leads.form_type, leads.received_at, outbox.attempts, outbox.next_attempt_at, outbox.last_error
     FROM outbox JOIN leads ON leads.id = outbox.lead_id WHERE outbox.sent_at IS NULL ORDER BY outbox.created_at, outbox.lead_id LIMIT ?`,
  );

  return {
    claimNotifications: (claim) =>
      guard(() => {
        const now = claim.now.toISOString();
        if (!anyDue.get(now, now)) return [];
        const claimed = claimDue.all(claim.owner, claim.until.toISOString(), now, now, claim.limit) as Array<{ lead_id: string; attempts: number }>;
        const disclosureText = handle.disclosureTexts();
        return claimed.flatMap(({ lead_id, attempts }) => {
          const row = selectLead.get(lead_id) as LeadRow | undefined;
          return row ? [{ lead: rowToLead(row, disclosureText), attempts }] : [];
        });
      }),
    notificationSent: (leadId, at) => guard(() => void markSent.run(at.toISOString(), leadId)),
    notificationFailed: (leadId, owner, retry) => guard(() => void markFailed.run(retry.at.toISOString(), retry.error, leadId, owner)),
    outboxStatus: () =>
      guard(() => {
        const row = selectOutboxStatus.get() as { waiting: number; failing: number; oldest: string | null };
        return { waiting: row.waiting, failing: row.failing, oldestWaiting: row.oldest === null ? undefined : new Date(row.oldest) };
      }),
    waitingNotifications: (limit) =>
      guard(() =>
        (
          selectWaiting.all(limit) as Array<{
            lead_id: string;
            form_type: OutboxEntry['formType'];
            received_at: string;
            attempts: number;
            next_attempt_at: string;
            last_error: string | null;
          }>
        ).map((r): OutboxEntry => ({
          leadId: r.lead_id,
          formType: r.form_type,
          receivedAt: new Date(r.received_at),
          attempts: r.attempts,
          nextAttemptAt: new Date(r.next_attempt_at),
          lastError: r.last_error,
        })),
      ),
  };
}
