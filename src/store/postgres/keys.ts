/** What the service keeps about itself in PostgreSQL: its secrets (made on first use) and its announcements. */
import { randomBytes } from 'node:crypto';
import type { ServiceKeys } from '../../leads/store.ts';
import type { PostgresHandle } from './handle.ts';

/** The service-keys role on `handle`. */
export function postgresKeys(handle: PostgresHandle): ServiceKeys {
  const { pool, unavailable } = handle;
  return {
    secret: async (name) => {
      await pool
        .query('INSERT INTO secrets (name, value, created_at) VALUES ($1, $2, now()) ON CONFLICT (name) DO NOTHING', [name, randomBytes(32)])
        .catch(unavailable);
      const { rows } = await pool.query<{ value: Buffer }>('SELECT value FROM secrets WHERE name = $1', [name]).catch(unavailable);
      return rows[0]!.value;
    },
    announcedAt: async (name, value) => {
      const { rows } = await pool
        .query<{ first_seen_at: Date }>('SELECT first_seen_at FROM announcements WHERE name = $1 AND value = $2', [name, value])
        .catch(unavailable);
      return rows[0]?.first_seen_at;
    },
    recordAnnouncement: async (name, value, at) => {
      await pool
        .query(
          `INSERT INTO announcements (name, value, first_seen_at) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value, first_seen_at = excluded.first_seen_at WHERE announcements.value <> excluded.value`,
          [name, value, at],
        )
        .catch(unavailable);
    },
  };
}
