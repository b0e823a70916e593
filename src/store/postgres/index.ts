/**
 * The PostgreSQL lead store for deployments of more than one instance (`pg` with a pool). The same
 * behaviour as the SQLite store: a receipt only after COMMIT; idempotency keys and duplicate
 * detection decided by unique keys inside one transaction; versioned migrations applied at
 * start-up under an advisory lock. One pool (`handle.ts`) shared by a file per role: intake,
 * records, outbox, service keys.
 */
import type { LeadStore } from '../../leads/store.ts';
import type { OfficeStore } from '../../office/store.ts';
import { postgresOffice } from './office.ts';
import { postgresOfficeExport } from './office-export.ts';
import { postgresAttempts } from './office-attempts.ts';
import { postgresStaff } from './office-staff.ts';
import { postgresOverview } from './office-overview.ts';
import { openPostgresHandle } from './handle.ts';
import { postgresIntake, type PostgresStoreOptions } from './intake.ts';
import { postgresKeys } from './keys.ts';
import { postgresMinutesClock } from './office-clock.ts';
import { postgresOutbox } from './outbox.ts';
import { postgresRecords } from './records.ts';
import { fillSearchText } from './search-text.ts';

export type { PostgresStoreOptions } from './intake.ts';

/** Opens a pool on `url`, applies migrations, and returns the store. */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<LeadStore & OfficeStore> {
  const handle = await openPostgresHandle(url, options);
  await fillSearchText(handle).catch(async (err: unknown) => {
    await handle.pool.end().catch(() => {});
    throw err;
  });
  const clock = await postgresMinutesClock(handle).catch(async (err: unknown) => {
    await handle.pool.end().catch(() => {});
    throw err;
  });
  const { takeIn, ...intake } = postgresIntake(handle, options);
  return {
    kind: 'postgres',
    ...intake,
    ...postgresRecords(handle),
    ...postgresOutbox(handle),
    ...postgresKeys(handle),
    ...postgresOffice(handle, takeIn, clock),
    ...postgresOfficeExport(handle),
    ...postgresAttempts(handle),
    ...postgresStaff(handle),
    ...postgresOverview(handle),
    keepOfficeClock: (kept) => clock.keep(kept),
    close: () => handle.pool.end(),
  };
}
