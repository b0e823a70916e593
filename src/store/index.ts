/** The one place that chooses the lead store, from configuration. */
import type { Config } from '../config.ts';
import type { LeadStore } from '../leads/store.ts';
import { openPostgresStore } from './postgres-store.ts';
import { openSqliteStore } from './sqlite-store.ts';

/** Opens the store `DATABASE_URL` names: a SQLite file, or PostgreSQL for several instances. */
export async function createLeadStore(config: Pick<Config, 'database'>): Promise<LeadStore> {
  return config.database.kind === 'sqlite'
    ? openSqliteStore(config.database.path, { groupCommit: config.database.groupCommit })
    : openPostgresStore(config.database.url);
}
