/** The SQLite store's office staff: their accounts, their sessions, each session's searches, and changes held through a sign-in. */
import { randomBytes } from 'node:crypto';
import { SEARCHES_KEPT, type HeldChange, type OfficeAccounts, type OfficeRole, type OfficeSessions } from '../../office/store.ts';
import type { SqliteHandle } from './handle.ts';

/** The staff's roles on `handle`. */
export function sqliteStaff(handle: SqliteHandle): OfficeAccounts & OfficeSessions {
  const { db, guard, inTransaction, writeAudit } = handle;
  const iso = (d: Date) => d.toISOString();
  return {
    saveUser: (email, passwordHash, at, audit, role) =>
      guard(() =>
        inTransaction(() => {
          const existed = db.prepare('SELECT 1 FROM office_users WHERE email = ?').get(email) !== undefined;
          if (existed) {
            db.prepare('UPDATE office_users SET password_hash = ?, role = coalesce(?, role) WHERE email = ?').run(passwordHash, role ?? null, email);
            // A new password ends every session the old one opened.
            db.prepare('DELETE FROM office_sessions WHERE email = ?').run(email);
          } else
            db.prepare('INSERT INTO office_users (email, password_hash, created_at, role) VALUES (?, ?, ?, ?)').run(
              email,
              passwordHash,
              iso(at),
              role ?? 'owner',
            );
          if (audit) writeAudit(audit(!existed));
          return !existed;
        }),
      ),
    removeUser: (email, audit) =>
      guard(() =>
        inTransaction(() => {
          db.prepare('DELETE FROM office_sessions WHERE email = ?').run(email);
          const removed = Number(db.prepare('DELETE FROM office_users WHERE email = ?').run(email).changes) > 0;
          if (removed && audit) writeAudit(audit);
          return removed;
        }),
      ),
    listUsers: () =>
      guard(() =>
        (db.prepare('SELECT id, email, role, created_at, last_sign_in_at FROM office_users ORDER BY email').all() as Array<Record<string, string | null>>).map(
          (r) => ({
            id: r.id!,
            email: r.email!,
            role: r.role as OfficeRole,
            createdAt: new Date(r.created_at!),
            lastSignInAt: r.last_sign_in_at ? new Date(r.last_sign_in_at) : undefined,
          }),
        ),
      ),
    passwordHash: (email) =>
      guard(() => (db.prepare('SELECT password_hash FROM office_users WHERE email = ?').get(email) as { password_hash: string } | undefined)?.password_hash),

    startSession: (tokenHash, email, passwordHash, at, audit) =>
      guard(() =>
        inTransaction(() => {
          const started = db
            .prepare(
              `INSERT INTO office_sessions (token_hash, email, created_at, last_seen_at)
               SELECT ?, email, ?, ? FROM office_users WHERE email = ? AND password_hash = ?`,
            )
            .run(tokenHash, iso(at), iso(at), email, passwordHash);
          if (Number(started.changes) === 0) return false;
          db.prepare('UPDATE office_users SET last_sign_in_at = ? WHERE email = ?').run(iso(at), email);
          writeAudit(audit);
          return true;
        }),
      ),
    touchSession: (tokenHash, since, now) =>
      guard(() => {
        const row = db
          .prepare(
            'UPDATE office_sessions SET last_seen_at = ? WHERE token_hash = ? AND last_seen_at >= ? AND created_at >= ? RETURNING email, ' +
              '(SELECT role FROM office_users WHERE office_users.email = office_sessions.email) AS role',
          )
          .get(iso(now), tokenHash, iso(since.seenSince), iso(since.startedSince)) as { email: string; role: OfficeRole } | undefined;
        return row && { email: row.email, role: row.role };
      }),
    endSession: (tokenHash, audit) =>
      guard(() =>
        inTransaction(() => {
          // A session ended already (signed out in another tab) ends with no second line.
          const ended = Number(db.prepare('DELETE FROM office_sessions WHERE token_hash = ?').run(tokenHash).changes) > 0;
          if (ended && audit) writeAudit(audit);
        }),
      ),
    rememberSearch: (tokenHash, text, at) =>
      guard(() =>
        inTransaction(() => {
          const handle = randomBytes(12).toString('base64url');
          db.prepare('INSERT INTO office_searches (handle, token_hash, text, created_at) VALUES (?, ?, ?, ?)').run(handle, tokenHash, text, iso(at));
          db.prepare(
            'DELETE FROM office_searches WHERE token_hash = ? AND handle NOT IN (SELECT handle FROM office_searches WHERE ' +
              'token_hash = ? ORDER BY created_at DESC, rowid DESC LIMIT ?)',
          ).run(tokenHash, tokenHash, SEARCHES_KEPT);
          return handle;
        }),
      ),
    recallSearch: (tokenHash, handle) =>
      guard(
        () => (db.prepare('SELECT text FROM office_searches WHERE handle = ? AND token_hash = ?').get(handle, tokenHash) as { text: string } | undefined)?.text,
      ),
    holdChange: async (handleHash, sessionHash, change, at, rules) => {
      // Only a session that ended lately holds a change, for its account, once the account's change limit allowed it.
      const lately = 'FROM office_sessions WHERE token_hash = ? AND last_seen_at >= ? AND created_at >= ?';
      const since = [sessionHash, iso(rules.seenSince), iso(rules.startedSince)];
      const session = await guard(() => db.prepare(`SELECT email ${lately}`).get(...since) as { email: string } | undefined);
      if (!session || !(await rules.allow(session.email))) return false;
      return guard(() =>
        inTransaction(() => {
          db.prepare('DELETE FROM office_held_changes WHERE created_at < ?').run(iso(rules.keepSince));
          // The account's own past its newest `perAccount - 1` make room for this one, oldest first; the office's cap is the last bound.
          const theirs = db.prepare('SELECT handle_hash FROM office_held_changes WHERE email = ? ORDER BY created_at DESC, rowid DESC').all(session.email);
          const forgotten = (theirs as Array<{ handle_hash: string }>).slice(Math.max(0, rules.perAccount - 1));
          const held = (db.prepare('SELECT count(*) AS n FROM office_held_changes').get() as { n: number }).n;
          if (held - forgotten.length >= rules.max) return false;
          const kept = db
            .prepare(`INSERT OR REPLACE INTO office_held_changes (handle_hash, path, fields, email, created_at) SELECT ?, ?, ?, email, ? ${lately}`)
            .run(handleHash, change.path, JSON.stringify(change.fields), iso(at), ...since);
          if (Number(kept.changes) === 0) return false;
          const forget = db.prepare('DELETE FROM office_held_changes WHERE handle_hash = ?');
          for (const row of forgotten) forget.run(row.handle_hash);
          return true;
        }),
      );
    },
    takeHeldChange: (handleHash, keepSince, email) =>
      guard(() => {
        const row = db.prepare('DELETE FROM office_held_changes WHERE handle_hash = ? RETURNING path, fields, email, created_at').get(handleHash) as
          { path: string; fields: string; email: string; created_at: string } | undefined;
        return row && row.email === email && row.created_at >= iso(keepSince)
          ? { path: row.path, fields: JSON.parse(row.fields) as HeldChange['fields'] }
          : undefined;
      }),
  };
}
