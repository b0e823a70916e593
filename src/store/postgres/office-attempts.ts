/**
 * The PostgreSQL store's attempts (`src/office/attempts.ts`): a call, text or e-mail that reached
 * nobody, kept with its lead (erased with it: `ON DELETE CASCADE`), with its audit line in one
 * transaction; and, for a page of leads, each one's count and last attempt in one query.
 */
import type { AttemptsSoFar, AttemptWay, OfficeAttempts } from '../../office/attempts.ts';
import { writeAudit, type PostgresHandle } from './handle.ts';

/** The attempts role on `handle`. */
export function postgresAttempts(handle: PostgresHandle): OfficeAttempts {
  return {
    recordAttempt: (reference, attempt, audit) =>
      handle.transaction(async (c) => {
        const { rows } = await c.query<{ id: string }>('SELECT id FROM leads WHERE reference = $1', [reference]);
        if (!rows[0]) return false;
        await c.query('INSERT INTO lead_attempts (lead_id, at, tried_by, way) VALUES ($1, $2, $3, $4)', [rows[0].id, attempt.at, attempt.by, attempt.way]);
        // An attempt is acting on the lead: one given to its maker is no longer marked for them (migration 22).
        await c.query('DELETE FROM lead_given_marks WHERE lead_id = $1 AND account = $2', [rows[0].id, attempt.by]);
        await writeAudit(c, audit);
        return true;
      }),
  };
}

/** How many attempts each of the leads `ids` has, and its last: one query by the index of attempts by lead. */
export async function attemptsOf(handle: PostgresHandle, ids: readonly string[]): Promise<Map<string, AttemptsSoFar>> {
  const found = new Map<string, AttemptsSoFar>();
  if (ids.length === 0) return found;
  const { rows } = await handle.pool
    .query<{ lead_id: string; at: Date; tried_by: string; way: AttemptWay; n: string }>(
      'SELECT lead_id, at, tried_by, way, n FROM (SELECT lead_id, at, tried_by, way, COUNT(*) OVER (PARTITION BY lead_id) AS n, ' +
        'ROW_NUMBER() OVER (PARTITION BY lead_id ORDER BY at DESC, id DESC) AS r FROM lead_attempts WHERE lead_id = ANY($1)) AS a WHERE r = 1',
      [ids],
    )
    .catch(handle.unavailable);
  for (const r of rows) found.set(r.lead_id, { count: Number(r.n), last: { at: r.at, by: r.tried_by, way: r.way } });
  return found;
}
