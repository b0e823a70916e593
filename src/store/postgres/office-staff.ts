/**
 * The PostgreSQL store's office staff: their accounts, their sessions (shared by every instance), each session's searches,
 * and changes held through a sign-in.
 */
import { randomBytes } from 'node:crypto';
import { SEARCHES_KEPT, type HeldChange, type OfficeAccounts, type OfficeRole, type OfficeSessions } from '../../office/store.ts';
import { writeAudit, type PostgresHandle } from './handle.ts';

/** The staff's roles on `handle`. */
export function postgresStaff(handle: PostgresHandle): OfficeAccounts & OfficeSessions {
  const { pool, transaction, unavailable } = handle;
  const query = <R extends object>(sql: string, params: unknown[] = []) => pool.query<R>(sql, params).catch(unavailable);
  return {
    saveUser: (email, passwordHash, at, audit, role) =>
      transaction(async (c) => {
        const { rows } = await c.query<{ inserted: boolean }>(
          `INSERT INTO office_users (email, password_hash, created_at, role) VALUES ($1, $2, $3, coalesce($4, 'owner'))
           ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash, role = coalesce($4, office_users.role)
           RETURNING (xmax = 0) AS inserted`,
          [email, passwordHash, at, role ?? null],
        );
        // A new password ends every session the old one opened.
        if (!rows[0]!.inserted) await c.query('DELETE FROM office_sessions WHERE email = $1', [email]);
        if (audit) await writeAudit(c, audit(rows[0]!.inserted));
        return rows[0]!.inserted;
      }),
    removeUser: (email, audit) =>
      transaction(async (c) => {
        await c.query('DELETE FROM office_sessions WHERE email = $1', [email]);
        const removed = ((await c.query('DELETE FROM office_users WHERE email = $1', [email])).rowCount ?? 0) > 0;
        if (removed && audit) await writeAudit(c, audit);
        return removed;
      }),
    listUsers: async () =>
      (
        await query<{ id: string; email: string; role: OfficeRole; created_at: Date; last_sign_in_at: Date | null }>(
          'SELECT id, email, role, created_at, last_sign_in_at FROM office_users ORDER BY email',
        )
      ).rows.map((r) => ({ id: r.id, email: r.email, role: r.role, createdAt: r.created_at, lastSignInAt: r.last_sign_in_at ?? undefined })),
    passwordHash: async (email) =>
      (await query<{ password_hash: string }>('SELECT password_hash FROM office_users WHERE email = $1', [email])).rows[0]?.password_hash,

    startSession: (tokenHash, email, passwordHash, at, audit) =>
      transaction(async (c) => {
        // The account's row is locked: a new password set meanwhile waits, and then ends this session too.
        const started = await c.query(
          `INSERT INTO office_sessions (token_hash, email, created_at, last_seen_at)
           SELECT $1, email, $3, $3 FROM office_users WHERE email = $2 AND password_hash = $4 FOR UPDATE`,
          [tokenHash, email, at, passwordHash],
        );
        if ((started.rowCount ?? 0) === 0) return false;
        await c.query('UPDATE office_users SET last_sign_in_at = $2 WHERE email = $1', [email, at]);
        await writeAudit(c, audit);
        return true;
      }),
    touchSession: async (tokenHash, since, now) => {
      const row = (
        await query<{ email: string; role: OfficeRole }>(
          'UPDATE office_sessions SET last_seen_at = $4 WHERE token_hash = $1 AND last_seen_at >= $2 AND created_at >= $3 RETURNING email, ' +
            '(SELECT role FROM office_users WHERE office_users.email = office_sessions.email) AS role',
          [tokenHash, since.seenSince, since.startedSince, now],
        )
      ).rows[0];
      return row && { email: row.email, role: row.role };
    },
    endSession: (tokenHash, audit) =>
      transaction(async (c) => {
        // A session ended already (signed out in another tab) ends with no second line.
        const ended = ((await c.query('DELETE FROM office_sessions WHERE token_hash = $1', [tokenHash])).rowCount ?? 0) > 0;
        if (ended && audit) await writeAudit(c, audit);
      }),
    rememberSearch: (tokenHash, text, at) =>
      transaction(async (c) => {
        const handle = randomBytes(12).toString('base64url');
        await c.query('INSERT INTO office_searches (handle, token_hash, text, created_at) VALUES ($1, $2, $3, $4)', [handle, tokenHash, text, at]);
        await c.query(
          `DELETE FROM office_searches WHERE token_hash = $1 AND handle NOT IN
           (SELECT handle FROM office_searches WHERE token_hash = $1 ORDER BY created_at DESC, handle LIMIT $2)`,
          [tokenHash, SEARCHES_KEPT],
        );
        return handle;
      }),
    recallSearch: async (tokenHash, handle) =>
      (await query<{ text: string }>('SELECT text FROM office_searches WHERE handle = $1 AND token_hash = $2', [handle, tokenHash])).rows[0]?.text,
    holdChange: async (handleHash, sessionHash, change, at, rules) => {
      // Only a session that ended lately holds a change, for its account, once the account's change limit allowed it.
      const lately = 'FROM office_sessions WHERE token_hash = $1 AND last_seen_at >= $2 AND created_at >= $3';
      const since = [sessionHash, rules.seenSince, rules.startedSince];
      const session = (await query<{ email: string }>(`SELECT email ${lately}`, since)).rows[0];
      if (!session || !(await rules.allow(session.email))) return false;
      return transaction(async (c) => {
        // The lock first, before any row is touched: the count and the insert under it, so that two
        // instances cannot both take the last place, and two holds wait for each other, never deadlock.
        await c.query('LOCK TABLE office_held_changes IN SHARE ROW EXCLUSIVE MODE');
        await c.query('DELETE FROM office_held_changes WHERE created_at < $1', [rules.keepSince]);
        // The account's own past its newest `perAccount - 1` make room for this one, oldest first; the office's cap is the last bound.
        const theirs = await c.query<{ handle_hash: string }>(
          'SELECT handle_hash FROM office_held_changes WHERE email = $1 ORDER BY created_at DESC, handle_hash DESC',
          [session.email],
        );
        const forgotten = theirs.rows.slice(Math.max(0, rules.perAccount - 1)).map((row) => row.handle_hash);
        const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM office_held_changes');
        if (rows[0]!.n - forgotten.length >= rules.max) return false;
        const kept = await c.query(
          `INSERT INTO office_held_changes (handle_hash, path, fields, email, created_at) SELECT $4, $5, $6, email, $7 ${lately}
           ON CONFLICT (handle_hash) DO UPDATE SET path = excluded.path, fields = excluded.fields, email = excluded.email,
             created_at = excluded.created_at`,
          [...since, handleHash, change.path, JSON.stringify(change.fields), at],
        );
        if ((kept.rowCount ?? 0) === 0) return false;
        await c.query('DELETE FROM office_held_changes WHERE handle_hash = ANY($1)', [forgotten]);
        return true;
      });
    },
    takeHeldChange: async (handleHash, keepSince, email) => {
      const row = (
        await query<{ path: string; fields: HeldChange['fields']; email: string; created_at: Date }>(
          'DELETE FROM office_held_changes WHERE handle_hash = $1 RETURNING path, fields, email, created_at',
          [handleHash],
        )
      ).rows[0];
      return row && row.email === email && row.created_at >= keepSince ? { path: row.path, fields: row.fields } : undefined;
    },
  };
}
