/** The one place that chooses the lead store, from configuration. */
import type { Config } from '../config.ts';
import type { LeadStore } from './lead-store.ts';
import { openSqliteStore } from './sqlite-store.ts';

/** Opens the store `DATABASE_URL` names. */
export async function createLeadStore(config: Pick<Config, 'database'>): Promise<LeadStore> {
  if (config.database.kind === 'sqlite') return openSqliteStore(config.database.path);
  throw new Error('DATABASE_URL names PostgreSQL, whose lead store is not part of this release yet: use file:<path>');
}
