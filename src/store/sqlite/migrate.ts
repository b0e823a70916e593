/** How the SQLite store's migrations (`migrations.ts`) are applied to a database. */
import type { DatabaseSync } from 'node:sqlite';
import type { Migration } from '../migration.ts';

/** Applies the migrations this database has not seen yet, in one transaction; then, if one asks, rebuilds the file. */
export function migrate(db: DatabaseSync, migrations: readonly Migration[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  let vacuum = false;
  db.exec('BEGIN IMMEDIATE');
  try {
    const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
    for (const m of migrations) {
      if (applied.has(m.version)) continue;
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
      vacuum ||= m.vacuum === true;
    }
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
  if (vacuum) {
    db.exec('VACUUM');
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }
}
