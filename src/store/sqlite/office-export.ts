/**
 * The SQLite store's spreadsheet of the inbox: the leads the inbox's filters select, with where the
 * office stands with each, oldest first, in keyset pages each read whole at once, so that no read is
 * open while the reader is slow or gone (it would hold off the checkpoint that erases deleted rows).
 */
import type { InboxFilter, OfficeInbox } from '../../office/store.ts';
import type { SqliteHandle } from './handle.ts';
import { inboxConditions, inboxLeads, type InboxRow } from './inbox-query.ts';

/** Leads read at once: a page in memory, and no read open between pages. */
const EXPORT_PAGE = 500;

/** The export role of the inbox on `handle`. */
export function sqliteOfficeExport(handle: SqliteHandle): Pick<OfficeInbox, 'exportInbox'> {
  return {
    async *exportInbox(filter: InboxFilter) {
      const params: Array<string | number> = [];
      const where = inboxConditions(filter, params);
      const page = handle.db.prepare(
        `SELECT * FROM leads WHERE (received_at, id) > (?, ?) ${where.map((c) => `AND ${c}`).join(' ')} ORDER BY received_at, id LIMIT ${EXPORT_PAGE}`,
      );
      let after = ['', ''];
      for (;;) {
        const items = await handle.guard(() => inboxLeads(handle, page.all(...after, ...params) as unknown as InboxRow[]));
        yield* items;
        if (items.length < EXPORT_PAGE) return;
        const last = items.at(-1)!.lead;
        after = [last.receivedAt, last.id];
      }
    },
  };
}
