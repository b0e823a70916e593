/**
 * The SQLite store's attempts (`src/office/attempts.ts`): a call, text or e-mail that reached nobody,
 * kept with its lead (erased with it: `ON DELETE CASCADE`, `secure_delete`), with its audit line in
 * one transaction; and, for a page of leads, each one's count and last attempt in one query.
 */
import type { AttemptsSoFar, AttemptWay, OfficeAttempts } from '../../office/attempts.ts';
import type { SqliteHandle } from './handle.ts';

/** The attempts role on `handle`. */
export function sqliteAttempts(handle: SqliteHandle): OfficeAttempts {
  const { db, guard, inTransaction, writeAudit } = handle;
  return {
    recordAttempt: (reference, attempt, audit) =>
      guard(() =>
        inTransaction(() => {
          const row = db.prepare('SELECT id FROM leads WHERE reference = ?').get(reference) as { id: string } | undefined;
          if (!row) return false;
          db.prepare('INSERT INTO lead_attempts (lead_id, at, tried_by, way) VALUES (?, ?, ?, ?)').run(
            row.id,
            attempt.at.toISOString(),
            attempt.by,
            attempt.way,
          );
          // An attempt is acting on the lead: one given to its maker is no longer marked for them (migration 22).
          db.prepare('DELETE FROM lead_given_marks WHERE lead_id = ? AND account = ?').run(row.id, attempt.by);
          writeAudit(audit);
          return true;
        }),
      ),
  };
}

/** How many attempts each of the leads `ids` has, and its last: one query by the index of attempts by lead. */
export function attemptsOf(handle: SqliteHandle, ids: readonly string[]): Map<string, AttemptsSoFar> {
  const found = new Map<string, AttemptsSoFar>();
  if (ids.length === 0) return found;
  const rows = handle.db
    .prepare(
      'SELECT lead_id, at, tried_by, way, n FROM (SELECT lead_id, at, tried_by, way, COUNT(*) OVER (PARTITION BY lead_id) AS n, ' +
        'ROW_NUMBER() OVER (PARTITION BY lead_id ORDER BY at DESC, id DESC) AS r ' +
        `FROM lead_attempts WHERE lead_id IN (${ids.map(() => '?').join(', ')})) AS a WHERE r = 1`,
    )
    .all(...ids) as Array<{ lead_id: string; at: string; tried_by: string; way: AttemptWay; n: number }>;
  for (const r of rows) found.set(r.lead_id, { count: Number(r.n), last: { at: new Date(r.at), by: r.tried_by, way: r.way } });
  return found;
}
