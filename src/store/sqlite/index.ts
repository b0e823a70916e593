/**
 * The embedded lead store on `node:sqlite`: WAL journal, `synchronous=FULL` (every commit is on
 * disk before `submit` resolves), a busy timeout for other processes on the same file. One
 * connection (`handle.ts`) shared by a file per role: intake, records, outbox, service keys, and the office's.
 */
import type { LeadStore } from '../../leads/store.ts';
import type { OfficeStore } from '../../office/store.ts';
import { sqliteOffice } from './office.ts';
import { sqliteOfficeExport } from './office-export.ts';
import { sqliteAttempts } from './office-attempts.ts';
import { sqliteStaff } from './office-staff.ts';
import { sqliteOverview } from './office-overview.ts';
import { openSqliteHandle } from './handle.ts';
import { sqliteIntake, type SqliteStoreOptions } from './intake.ts';
import { sqliteKeys } from './keys.ts';
import { sqliteDayClock } from './office-days.ts';
import { sqliteOutbox } from './outbox.ts';
import { sqliteRecords } from './records.ts';
import { fillSearchText } from './search-text.ts';

export type { SqliteStoreOptions } from './intake.ts';

/** Opens (creating if needed) the SQLite store at `path`, applies migrations and checks its settings. */
export function openSqliteStore(path: string, options: SqliteStoreOptions = { groupCommit: true }): LeadStore & OfficeStore {
  const handle = openSqliteHandle(path, options.log);
  fillSearchText(handle);
  const clock = sqliteDayClock(handle);
  const { flush, takeIn, ...intake } = sqliteIntake(handle, options, clock);
  return {
    kind: 'sqlite',
    ...intake,
    ...sqliteRecords(handle),
    ...sqliteOutbox(handle),
    ...sqliteKeys(handle),
    ...sqliteOffice(handle, takeIn, clock),
    ...sqliteOfficeExport(handle),
    ...sqliteAttempts(handle),
    ...sqliteStaff(handle),
    ...sqliteOverview(handle, clock),
    keepOfficeClock: (kept) => handle.guard(() => clock.keep(kept)),
    close: async () => {
      flush();
      handle.close();
    },
  };
}
