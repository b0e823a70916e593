/**
 * The PostgreSQL store's spreadsheet of the inbox: the leads the inbox's filters select, with where
 * the office stands with each, oldest first, in keyset pages, so that an export of any size holds one
 * page in memory at a time and no query is open while the reader is slow or gone.
 */
import type { InboxFilter, OfficeInbox } from '../../office/store.ts';
import type { PostgresHandle } from './handle.ts';
import { inboxConditions, inboxLeads, WITH_DISCLOSURE, type InboxRow } from './inbox-query.ts';

/** Leads read at once. */
const EXPORT_PAGE = 500;

/** The export role of the inbox on `handle`. */
export function postgresOfficeExport(handle: PostgresHandle): Pick<OfficeInbox, 'exportInbox'> {
  return {
    async *exportInbox(filter: InboxFilter) {
      let after: [Date, string] = [new Date(0), ''];
      for (;;) {
        const params: unknown[] = [];
        const param = (value: unknown) => `$${params.push(value)}`;
        const where = [`(leads.received_at, leads.id) > (${param(after[0])}, ${param(after[1])})`, ...inboxConditions(filter, param)];
        const sql = `${WITH_DISCLOSURE} WHERE ${where.join(' AND ')} ORDER BY leads.received_at, leads.id LIMIT ${EXPORT_PAGE}`;
        const { rows } = await handle.pool.query<InboxRow>(sql, params).catch(handle.unavailable);
        yield* await inboxLeads(handle, rows);
        if (rows.length < EXPORT_PAGE) return;
        after = [rows.at(-1)!.received_at, rows.at(-1)!.id];
      }
    },
  };
}
