/**
 * What the PostgreSQL store's inbox, its spreadsheet and its deletion preview read alike: the one
 * search over leads or suspected spam, the inbox's conditions, a lead's notes, and a row as the
 * office sees it.
 */
import {
  SAME_PERSON_PER_KEY,
  type InboxFilter,
  type InboxLead,
  type LeadNote,
  type LeadStatus,
  type PersonMatch,
  type SuspectedSpam,
} from '../../office/store.ts';
import { inboxSearch } from '../../office/search.ts';
import { rowToLead, type LeadRow, type PostgresHandle } from './handle.ts';
import { attemptsOf } from './office-attempts.ts';

export type InboxRow = LeadRow & {
  status: LeadStatus;
  status_by: string | null;
  status_at: Date | null;
  owner: string | null;
  first_contact_at?: Date | null;
  first_contact_by?: string | null;
};
export type SpamRow = {
  id: string;
  reference: string;
  form_type: SuspectedSpam['formType'];
  received_at: Date;
  reason: SuspectedSpam['reason'];
  submission: Pick<SuspectedSpam, 'body' | 'meta'>;
  dismissed_at?: Date | null;
  dismissed_by?: string | null;
};

export const toSpam = (r: SpamRow): SuspectedSpam => ({
  id: r.id,
  reference: r.reference,
  formType: r.form_type,
  receivedAt: r.received_at,
  reason: r.reason,
  body: r.submission.body,
  meta: r.submission.meta,
  ...(r.dismissed_at && { notACustomer: { by: r.dismissed_by ?? '', at: r.dismissed_at } }),
});

/** The tables a search looks in, and the key of their rows. */
export const LEADS = { table: 'leads', key: 'reference' } as const;
export const SPAM = { table: 'suspected_spam', key: 'id' } as const;

/**
 * The condition of one search (`inboxSearch`) over `on.table` (with `search_text` and `reference`),
 * its parameters added through `param`; none for an empty search. The rows that match are found in
 * the index of the folded text and the row's key (an index-only read where the table is vacuumed),
 * then fetched by their key.
 */
export function searchCondition(typed: string | undefined, on: typeof LEADS | typeof SPAM, param: (value: unknown) => string): string | undefined {
  const search = inboxSearch(typed);
  if (!search) return undefined;
  const any = [
    ...search.text.map((pattern) => `found.search_text LIKE ${param(pattern)}`),
    ...(search.referenceStart ? [`found.reference LIKE ${param(search.referenceStart)}`] : []),
  ];
  return `${on.table}.${on.key} IN (SELECT found.${on.key} FROM ${on.table} AS found WHERE ${any.join(' OR ')})`;
}

/** A lead with the text of the consent wording it names. */
export const WITH_DISCLOSURE =
  `SELECT leads.*, disclosures.text AS disclosure_text FROM leads LEFT JOIN disclosures ON disclosures.version = ` + `leads.consent->>'disclosureVersion'`;

/** The conditions of what the inbox shows (`filter`), their parameters added through `param`. */
export function inboxConditions(filter: InboxFilter, param: (value: unknown) => string): string[] {
  const where: string[] = [];
  const search = searchCondition(filter.search, LEADS, param);
  if (search) where.push(search);
  if (filter.form) where.push(`leads.form_type = ${param(filter.form)}`);
  if (filter.status) where.push(`leads.status = ${param(filter.status)}`);
  if (filter.since) where.push(`leads.received_at >= ${param(filter.since)}`);
  if (filter.until) where.push(`leads.received_at < ${param(filter.until)}`);
  if (filter.postalCode) where.push(`leads.postal_code = ${param(filter.postalCode)}`);
  if (filter.urgent) where.push("leads.status = 'new'");
  if (filter.open) where.push("leads.status <> 'done'");
  if (filter.due?.from)
    where.push(
      filter.due.before ? `leads.answer_by >= ${param(filter.due.from)}` : `(leads.answer_by >= ${param(filter.due.from)} OR leads.answer_by IS NULL)`,
    );
  if (filter.due?.before) where.push(`leads.answer_by < ${param(filter.due.before)}`);
  if (filter.owner === 'nobody') where.push('leads.owner IS NULL');
  else if (filter.owner && 'email' in filter.owner) where.push(`leads.owner = ${param(filter.owner.email)}`);
  else if (filter.owner) where.push(`leads.owner IN (SELECT email FROM office_users WHERE id = ${param(filter.owner.id)})`);
  if (filter.reference) where.push(`leads.reference = ${param(filter.reference)}`);
  if (filter.visitBetween)
    where.push(
      `EXISTS (SELECT 1 FROM json_array_elements_text(leads.fields->'preferredDates') AS d ` +
        `WHERE d BETWEEN ${param(filter.visitBetween.from)} AND ${param(filter.visitBetween.to)})`,
    );
  return where;
}

/** The `WHERE` clause (or nothing) of the leads `filter` selects, its parameters taken by `param`: the inbox's page and counts. */
export function inboxWhere(filter: InboxFilter, param: (value: unknown) => string): string {
  const where = inboxConditions(filter, param);
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}

/** The rows `rows` as the inbox shows them, with their notes (oldest first), their attempts (how many, the last), and those given to `account` marked so. */
export async function inboxLeads(handle: PostgresHandle, rows: InboxRow[], account?: string): Promise<InboxLead[]> {
  const notes = new Map<string, LeadNote[]>();
  const given = new Map<string, { by: string; at: Date }>();
  if (rows.length > 0 && account !== undefined)
    for (const m of (
      await handle.pool
        .query<{ lead_id: string; given_by: string; given_at: Date }>(
          'SELECT lead_id, given_by, given_at FROM lead_given_marks WHERE account = $1 AND lead_id = ANY($2)',
          [account, rows.map((r) => r.id)],
        )
        .catch(handle.unavailable)
    ).rows)
      given.set(m.lead_id, { by: m.given_by, at: m.given_at });
  if (rows.length > 0)
    for (const n of (
      await handle.pool
        .query<{ lead_id: string; at: Date; author: string; text: string }>(
          'SELECT lead_id, at, author, text FROM lead_notes WHERE lead_id = ANY($1) ORDER BY at, id',
          [rows.map((r) => r.id)],
        )
        .catch(handle.unavailable)
    ).rows)
      notes.set(n.lead_id, [...(notes.get(n.lead_id) ?? []), { at: n.at, by: n.author, text: n.text }]);
  // Each lead's attempts so far (how many, the last): one query for the page.
  const attempts = await attemptsOf(
    handle,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    lead: rowToLead(r),
    owner: r.owner ?? undefined,
    notes: notes.get(r.id) ?? [],
    status: r.status,
    statusBy: r.status_by ?? undefined,
    statusAt: r.status_at ?? undefined,
    ...(r.first_contact_at && { firstContact: { at: r.first_contact_at, by: r.first_contact_by ?? '' } }),
    ...(attempts.has(r.id) && { attempts: attempts.get(r.id)! }),
    ...(given.has(r.id) && { givenBy: given.get(r.id) }),
  }));
}

/**
 * The same person's leads and caught submissions (`OfficeInbox.samePerson`): one query, each part an index's lookup
 * (`leads_by_email`, `leads_by_phone`, `suspected_spam_by_email`, `suspected_spam_by_phone`), each key's newest kept.
 */
export async function samePerson(handle: PostgresHandle, people: ReadonlyArray<{ emailNormalised: string; phoneE164: string }>): Promise<PersonMatch[]> {
  const emails = [...new Set(people.map((p) => p.emailNormalised).filter((v) => v !== ''))];
  const phones = [...new Set(people.map((p) => p.phoneE164).filter((v) => v !== ''))];
  if (emails.length === 0 && phones.length === 0) return [];
  const part = (kind: string, table: string, column: string, values: string) =>
    `SELECT '${kind}' AS kind, reference, form_type, received_at, email_normalised, phone_e164, ` +
    `${kind === 'lead' ? 'status, owner' : 'NULL::text AS status, NULL::text AS owner'}, '${column}:' || ${column} AS k ` +
    `FROM ${table} WHERE ${column} = ANY(${values}::text[])`;
  const parts = [
    part('lead', 'leads', 'email_normalised', '$1'),
    part('lead', 'leads', 'phone_e164', '$2'),
    part('spam', 'suspected_spam', 'email_normalised', '$1'),
    part('spam', 'suspected_spam', 'phone_e164', '$2'),
  ];
  const sql =
    'SELECT kind, reference, form_type, received_at, email_normalised, phone_e164, status, owner FROM (SELECT *, row_number() OVER ' +
    `(PARTITION BY k ORDER BY received_at DESC, reference) AS n FROM (${parts.join(' UNION ALL ')}) AS found) AS ranked ` +
    'WHERE n <= $3 ORDER BY received_at DESC, reference';
  const { rows } = await handle.pool
    .query<{
      kind: PersonMatch['kind'];
      reference: string;
      form_type: PersonMatch['formType'];
      received_at: Date;
      email_normalised: string;
      phone_e164: string;
      status: LeadStatus | null;
      owner: string | null;
    }>(sql, [emails, phones, SAME_PERSON_PER_KEY])
    .catch(handle.unavailable);
  // Found by its e-mail and by its phone, a row is given once.
  const seen = new Set<string>();
  return rows
    .filter((r) => !seen.has(`${r.kind} ${r.reference}`) && Boolean(seen.add(`${r.kind} ${r.reference}`)))
    .map((r) => ({
      kind: r.kind,
      reference: r.reference,
      formType: r.form_type,
      receivedAt: r.received_at,
      emailNormalised: r.email_normalised,
      phoneE164: r.phone_e164,
      ...(r.status && { status: r.status }),
      ...(r.owner && { owner: r.owner }),
    }));
}
