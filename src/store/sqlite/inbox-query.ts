/**
 * What the SQLite store's inbox, its spreadsheet and its deletion preview read alike: the one search
 * over leads or suspected spam, the inbox's conditions, a lead's notes, and a row as the office sees it.
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
import { rowToLead, type LeadRow, type SqliteHandle } from './handle.ts';
import { attemptsOf } from './office-attempts.ts';

export type InboxRow = LeadRow & {
  status: LeadStatus;
  status_by: string | null;
  status_at: string | null;
  owner: string | null;
  first_contact_at?: string | null;
  first_contact_by?: string | null;
};
export type SpamRow = {
  id: string;
  reference: string;
  form_type: SuspectedSpam['formType'];
  received_at: string;
  reason: SuspectedSpam['reason'];
  submission: string;
  dismissed_at?: string | null;
  dismissed_by?: string | null;
};

export const toSpam = (r: SpamRow): SuspectedSpam => {
  const { body, meta } = JSON.parse(r.submission) as Pick<SuspectedSpam, 'body' | 'meta'>;
  return {
    id: r.id,
    reference: r.reference,
    formType: r.form_type,
    receivedAt: new Date(r.received_at),
    reason: r.reason,
    body,
    meta,
    ...(r.dismissed_at && { notACustomer: { by: r.dismissed_by ?? '', at: new Date(r.dismissed_at) } }),
  };
};

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

/** The conditions of what the inbox shows (`filter`), their parameters added to `params`. */
export function inboxConditions(filter: InboxFilter, params: Array<string | number>): string[] {
  const where: string[] = [];
  const search = searchCondition(filter.search, LEADS, params);
  if (search) where.push(search);
  for (const [condition, value] of [
    ['form_type = ?', filter.form],
    ['status = ?', filter.status],
    ['received_at >= ?', filter.since?.toISOString()],
    ['received_at < ?', filter.until?.toISOString()],
    ['postal_code = ?', filter.postalCode],
    ['reference = ?', filter.reference],
    ['owner = ?', typeof filter.owner === 'object' && 'email' in filter.owner ? filter.owner.email : undefined],
    ['owner IN (SELECT email FROM office_users WHERE id = ?)', typeof filter.owner === 'object' && 'id' in filter.owner ? filter.owner.id : undefined],
  ] as const)
    if (value !== undefined) {
      where.push(condition);
      params.push(value);
    }
  // The index by status holds the leads moved on from new alone (migration 18): SQLite uses it when the query says so too.
  if (filter.status !== undefined && filter.status !== 'new') where.push("status <> 'new'");
  if (filter.urgent) where.push("status = 'new'");
  if (filter.open) where.push("status <> 'done'");
  if (filter.due?.from) {
    where.push(filter.due.before ? 'answer_by >= ?' : '(answer_by >= ? OR answer_by IS NULL)');
    params.push(filter.due.from.toISOString());
  }
  if (filter.due?.before) {
    where.push('answer_by < ?');
    params.push(filter.due.before.toISOString());
  }
  if (filter.owner === 'nobody') where.push('owner IS NULL');
  if (filter.visitBetween) {
    where.push("EXISTS (SELECT 1 FROM json_each(leads.fields, '$.preferredDates') WHERE value BETWEEN ? AND ?)");
    params.push(filter.visitBetween.from, filter.visitBetween.to);
  }
  return where;
}

/** The `WHERE` clause (or nothing) of the leads `filter` selects, its parameters added to `params`: the inbox's page and counts. */
export function inboxWhere(filter: InboxFilter, params: Array<string | number>): string {
  const where = inboxConditions(filter, params);
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}

/** The rows `rows` as the inbox shows them, with their notes (oldest first), their attempts (how many, the last), and those given to `account` marked so. */
export function inboxLeads(handle: SqliteHandle, rows: InboxRow[], account?: string): InboxLead[] {
  const byLead = new Map<string, LeadNote[]>();
  const given = new Map<string, { by: string; at: Date }>();
  if (rows.length > 0 && account !== undefined) {
    const marks = handle.db
      .prepare(`SELECT lead_id, given_by, given_at FROM lead_given_marks WHERE account = ? AND lead_id IN (${rows.map(() => '?').join(', ')})`)
      .all(account, ...rows.map((r) => r.id)) as Array<{ lead_id: string; given_by: string; given_at: string }>;
    for (const m of marks) given.set(m.lead_id, { by: m.given_by, at: new Date(m.given_at) });
  }
  if (rows.length > 0) {
    const notes = handle.db
      .prepare(`SELECT lead_id, at, author, text FROM lead_notes WHERE lead_id IN (${rows.map(() => '?').join(', ')}) ORDER BY at, id`)
      .all(...rows.map((r) => r.id)) as Array<{ lead_id: string; at: string; author: string; text: string }>;
    for (const n of notes) byLead.set(n.lead_id, [...(byLead.get(n.lead_id) ?? []), { at: new Date(n.at), by: n.author, text: n.text }]);
  }
  const disclosureText = handle.disclosureTexts();
  // Each lead's attempts so far (how many, the last): one query for the page.
  const attempts = attemptsOf(
    handle,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    lead: rowToLead(r, disclosureText),
    owner: r.owner ?? undefined,
    notes: byLead.get(r.id) ?? [],
    status: r.status,
    statusBy: r.status_by ?? undefined,
    statusAt: r.status_at ? new Date(r.status_at) : undefined,
    ...(r.first_contact_at && { firstContact: { at: new Date(r.first_contact_at), by: r.first_contact_by ?? '' } }),
    ...(attempts.has(r.id) && { attempts: attempts.get(r.id)! }),
    ...(given.has(r.id) && { givenBy: given.get(r.id) }),
  }));
}

/**
 * The same person's leads and caught submissions (`OfficeInbox.samePerson`): one query, each part an index's lookup
 * (`leads_by_email`, `leads_by_phone`, `suspected_spam_by_email`, `suspected_spam_by_phone`), each key's newest kept.
 */
export function samePerson(handle: SqliteHandle, people: ReadonlyArray<{ emailNormalised: string; phoneE164: string }>): PersonMatch[] {
  const emails = [...new Set(people.map((p) => p.emailNormalised).filter((v) => v !== ''))];
  const phones = [...new Set(people.map((p) => p.phoneE164).filter((v) => v !== ''))];
  const params: string[] = [];
  const parts: string[] = [];
  // Each address's and number's newest, read by range from its index (the key, then the time of receipt).
  for (const [kind, table] of [
    ['lead', 'leads'],
    ['spam', 'suspected_spam'],
  ] as const)
    for (const [column, values] of [
      ['email_normalised', emails],
      ['phone_e164', phones],
    ] as const)
      for (const value of values) {
        // A lead says its status and who has it; a caught submission has neither.
        const standing = kind === 'lead' ? 'status, owner' : 'NULL AS status, NULL AS owner';
        parts.push(
          `SELECT * FROM (SELECT '${kind}' AS kind, reference, form_type, received_at, email_normalised, phone_e164, ${standing} ` +
            `FROM ${table} WHERE ${column} = ? ORDER BY received_at DESC, reference LIMIT ${SAME_PERSON_PER_KEY})`,
        );
        params.push(value);
      }
  // In statements of at most 400 parts (SQLite's compound SELECT stops at 500), then newest first.
  const rows: Array<Record<string, string | null>> = [];
  for (let i = 0; i < parts.length; i += 400)
    rows.push(...(handle.db.prepare(parts.slice(i, i + 400).join(' UNION ALL ')).all(...params.slice(i, i + 400)) as Array<Record<string, string | null>>));
  rows.sort((a, b) => (b.received_at! > a.received_at! ? 1 : b.received_at! < a.received_at! ? -1 : a.reference! < b.reference! ? -1 : 1));
  // Found by its e-mail and by its phone, a row is given once.
  const seen = new Set<string>();
  return rows
    .filter((r) => !seen.has(`${r.kind} ${r.reference}`) && Boolean(seen.add(`${r.kind} ${r.reference}`)))
    .map((r) => ({
      kind: r.kind as PersonMatch['kind'],
      reference: r.reference!,
      formType: r.form_type as PersonMatch['formType'],
      receivedAt: new Date(r.received_at!),
      emailNormalised: r.email_normalised!,
      phoneE164: r.phone_e164!,
      ...(r.status && { status: r.status as LeadStatus }),
      ...(r.owner && { owner: r.owner }),
    }));
}
