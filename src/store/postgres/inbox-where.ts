/**
 * The PostgreSQL store's conditions of the office's lists: one search over leads or suspected spam,
 * and the inbox's filters, shared by its page of leads (`office.ts`) and its counts (`office-overview.ts`).
 */
import type { InboxQuery } from '../../office/store.ts';
import { inboxSearch } from '../../office/search.ts';

/** The tables a search looks in, and the key of their rows. */
export const LEADS = { table: 'leads', key: 'reference' } as const;
export const SPAM = { table: 'suspected_spam', key: 'id' } as const;

/** Adds a parameter and says its placeholder (`$3`). */
export type Param = (value: unknown) => string;

/**
 * The condition of one search (`inboxSearch`) over `on.table` (with `search_text` and `reference`),
 * its parameters added through `param`; none for an empty search. The rows that match are found in
 * the index of the folded text and the row's key (an index-only read where the table is vacuumed),
 * then fetched by their key.
 */
export function searchCondition(typed: string | undefined, on: typeof LEADS | typeof SPAM, param: Param): string | undefined {
  const search = inboxSearch(typed);
  if (!search) return undefined;
  const any = [
    ...search.text.map((pattern) => `found.search_text LIKE ${param(pattern)}`),
    ...(search.referenceStart ? [`found.reference LIKE ${param(search.referenceStart)}`] : []),
  ];
  return `${on.table}.${on.key} IN (SELECT found.${on.key} FROM ${on.table} AS found WHERE ${any.join(' OR ')})`;
}

/** The `WHERE` clause (or nothing) of the leads `q` selects, its parameters added through `param`. */
export function inboxWhere(q: Omit<InboxQuery, 'limit' | 'offset'>, param: Param): string {
  const where: string[] = [];
  const search = searchCondition(q.search, LEADS, param);
  if (search) where.push(search);
  if (q.form) where.push(`leads.form_type = ${param(q.form)}`);
  if (q.status) where.push(`leads.status = ${param(q.status)}`);
  if (q.since) where.push(`leads.received_at >= ${param(q.since)}`);
  if (q.until) where.push(`leads.received_at < ${param(q.until)}`);
  if (q.postalCode) where.push(`leads.postal_code = ${param(q.postalCode)}`);
  if (q.owner === 'nobody') where.push('leads.owner IS NULL');
  else if (q.owner) where.push(`leads.owner = ${param(q.owner.email)}`);
  if (q.visitBetween)
    where.push(
      `EXISTS (SELECT 1 FROM json_array_elements_text(leads.fields->'preferredDates') AS d ` +
        `WHERE d BETWEEN ${param(q.visitBetween.from)} AND ${param(q.visitBetween.to)})`,
    );
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}
