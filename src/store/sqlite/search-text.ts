/** The SQLite store's folded search column, filled in for the leads and caught submissions stored before it (migration 10). */
import { searchText } from '../../office/search.ts';
import type { SqliteHandle } from './handle.ts';

/** Rows filled in per transaction: a few milliseconds each, so that the intake is never held long. */
const BATCH = 500;

/** Fills `search_text` where it is empty; says how many rows it filled. */
export function fillSearchText(handle: Pick<SqliteHandle, 'db' | 'inTransaction'>): number {
  const { db, inTransaction } = handle;
  let filled = 0;
  for (const [table, name] of [
    ['leads', "json_extract(fields, '$.name')"],
    ['suspected_spam', "json_extract(submission, '$.body.name')"],
  ] as const) {
    const pick = db.prepare(
      `SELECT id, reference, ${name} AS name, email_normalised AS email, phone_e164 AS phone FROM ${table} WHERE search_text IS NULL LIMIT ?`,
    );
    const fill = db.prepare(`UPDATE ${table} SET search_text = ? WHERE id = ?`);
    for (;;) {
      const rows = pick.all(BATCH) as Array<{ id: string; reference: string; name: unknown; email: string; phone: string }>;
      if (rows.length === 0) break;
      inTransaction(() => {
        for (const row of rows) fill.run(searchText({ name: row.name, emails: [row.email], phones: [row.phone], reference: row.reference }), row.id);
      });
      filled += rows.length;
    }
  }
  return filled;
}
