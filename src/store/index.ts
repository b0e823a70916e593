/** The one place that chooses the lead store, from configuration. */
import type { Config } from '../config.ts';
import type { LeadStore } from '../leads/store.ts';
import type { OfficeStore } from '../office/store.ts';
import { openPostgresStore } from './postgres/index.ts';
import { openSqliteStore } from './sqlite/index.ts';

/** The durable store: the lead roles and the office's, on one database. */
export type Store = LeadStore & OfficeStore;

/**
 * Opens the store `DATABASE_URL` names: a SQLite file, or PostgreSQL for several instances. With
 * the office's e-mail configured, every new lead is written with its notification in the outbox.
 */
export async function createLeadStore(config: Pick<Config, 'database' | 'mail'>): Promise<Store> {
  const outbox = config.mail !== undefined;
  return config.database.kind === 'sqlite'
    ? openSqliteStore(config.database.path, { groupCommit: config.database.groupCommit, outbox })
    : openPostgresStore(config.database.url, { outbox });
}
