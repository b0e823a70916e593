/** What the service keeps about itself in the SQLite store: its secrets (made on first use) and its announcements. */
import { randomBytes } from 'node:crypto';
import type { ServiceKeys } from '../../leads/store.ts';
import type { SqliteHandle } from './handle.ts';

/** The service-keys role on `handle`. */
export function sqliteKeys(handle: SqliteHandle): ServiceKeys {
  const { db, guard } = handle;
  const insertSecret = db.prepare('INSERT INTO secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING');
  const selectSecret = db.prepare('SELECT value FROM secrets WHERE name = ?');
  const selectAnnouncement = db.prepare('SELECT first_seen_at FROM announcements WHERE name = ? AND value = ?');
  const upsertAnnouncement = db.prepare(
    `INSERT INTO announcements (name, value, first_seen_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET value = excluded.value, first_seen_at = excluded.first_seen_at
     WHERE announcements.value <> excluded.value`,
  );
  return {
    secret: (name) =>
      guard(() => {
        insertSecret.run(name, randomBytes(32), new Date().toISOString());
        return Buffer.from((selectSecret.get(name) as { value: Uint8Array }).value);
      }),
    announcedAt: (name, value) =>
      guard(() => {
        const row = selectAnnouncement.get(name, value) as { first_seen_at: string } | undefined;
        return row ? new Date(row.first_seen_at) : undefined;
      }),
    recordAnnouncement: (name, value, at) => guard(() => void upsertAnnouncement.run(name, value, at.toISOString())),
  };
}
