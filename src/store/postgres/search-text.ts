/** The PostgreSQL store's folded search column, filled in for the leads and caught submissions stored before it (migration 10). */
import { searchText } from '../../office/search.ts';
import type { PostgresHandle } from './handle.ts';

/** Rows filled in per statement: several instances filling at once each take rows of their own. */
const BATCH = 500;

/** Fills `search_text` where it is empty; resolves with how many rows it filled. */
export async function fillSearchText(handle: Pick<PostgresHandle, 'transaction'>): Promise<number> {
  let filled = 0;
  for (const [table, name] of [
    ['leads', "fields->>'name'"],
    ['suspected_spam', "submission->'body'->>'name'"],
  ] as const) {
    for (;;) {
      const done = await handle.transaction(async (c) => {
        const { rows } = await c.query<{ id: string; reference: string; name: unknown; email: string; phone: string }>(
          `SELECT id, reference, ${name} AS name, email_normalised AS email, phone_e164 AS phone FROM ${table} ` +
            'WHERE search_text IS NULL LIMIT $1 FOR UPDATE SKIP LOCKED',
          [BATCH],
        );
        if (rows.length === 0) return 0;
        await c.query(`UPDATE ${table} SET search_text = batch.text FROM unnest($1::text[], $2::text[]) AS batch (id, text) WHERE ${table}.id = batch.id`, [
          rows.map((r) => r.id),
          rows.map((r) => searchText({ name: r.name, emails: [r.email], phones: [r.phone], reference: r.reference })),
        ]);
        return rows.length;
      });
      if (done === 0) break;
      filled += done;
    }
  }
  return filled;
}
