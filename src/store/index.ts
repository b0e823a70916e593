/** The one place that chooses the lead store, from configuration. */
import type { Config } from '../config/config.ts';
import type { LeadStore } from '../leads/store.ts';
import type { OfficeStore } from '../office/store.ts';
import { openPostgresStore } from './postgres/index.ts';
import { openSqliteStore } from './sqlite/index.ts';
import type { StoreLog } from './sqlite/handle.ts';

/** The durable store: the lead roles and the office's, on one database. */
export type Store = LeadStore & OfficeStore;

/**
 * Opens the store `DATABASE_URL` names: a SQLite file, or PostgreSQL for several instances. With
 * the office's e-mail configured, every new lead is written with its notification in the outbox;
 * `log` is where the store's warnings go (the service's log; standard error for the office's commands).
 */
export async function createLeadStore(config: Pick<Config, 'database' | 'mail'>, log?: StoreLog): Promise<Store> {
  const outbox = config.mail !== undefined;
  return config.database.kind === 'sqlite'
    ? openSqliteStore(config.database.path, { groupCommit: config.database.groupCommit, outbox, log })
    : openPostgresStore(config.database.url, { outbox });
}
