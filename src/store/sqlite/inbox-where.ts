/**
 * The SQLite store's conditions of the office's lists: one search over leads or suspected spam, and
 * the inbox's filters, shared by its page of leads (`office.ts`) and its counts (`office-overview.ts`).
 */
import type { InboxQuery } from '../../office/store.ts';
import { inboxSearch } from '../../office/search.ts';

/** The tables a search looks in, and the key of their rows. */
export const LEADS = { table: 'leads', key: 'reference' } as const;
export const SPAM = { table: 'suspected_spam', key: 'id' } as const;

/**
 * The condition of one search (`inboxSearch`) over `on.table` (with `search_text` and `reference`),
 * its parameters added to `params`; none for an empty search. The rows that match are found in the
 * index of the folded text and the row's key alone (a narrow read), then fetched by their key.
 */
export function searchCondition(typed: string | undefined, on: typeof LEADS | typeof SPAM, params: Array<string | number>): string | undefined {
  const search = inboxSearch(typed);
  if (!search) return undefined;
  const any = search.text.map(() => "search_text LIKE ? ESCAPE '\\'");
  params.push(...search.text);
  if (search.referenceStart) {
    any.push('reference LIKE ?');
    params.push(search.referenceStart);
  }
  return `${on.key} IN (SELECT ${on.key} FROM ${on.table} INDEXED BY ${on.table}_by_search WHERE ${any.join(' OR ')})`;
}

/** The `WHERE` clause (or nothing) of the leads `query` selects, its parameters added to `params`. */
export function inboxWhere(query: Omit<InboxQuery, 'limit' | 'offset'>, params: Array<string | number>): string {
  const iso = (d: Date) => d.toISOString();
  const where: string[] = [];
  const search = searchCondition(query.search, LEADS, params);
  if (search) where.push(search);
  for (const [condition, value] of [
    ['form_type = ?', query.form],
    ['status = ?', query.status],
    ['received_at >= ?', query.since && iso(query.since)],
    ['received_at < ?', query.until && iso(query.until)],
    ['postal_code = ?', query.postalCode],
    ['owner = ?', typeof query.owner === 'object' ? query.owner.email : undefined],
  ] as const)
    if (value !== undefined) {
      where.push(condition);
      params.push(value);
    }
  if (query.owner === 'nobody') where.push('owner IS NULL');
  if (query.visitBetween) {
    where.push("EXISTS (SELECT 1 FROM json_each(leads.fields, '$.preferredDates') WHERE value BETWEEN ? AND ?)");
    params.push(query.visitBetween.from, query.visitBetween.to);
  }
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}
