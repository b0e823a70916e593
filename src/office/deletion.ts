/**
 * Deletion on request, as the office serves it from its page or its command: first the leads that
 * would be removed, by whom and when, so that a number shared by two people is seen before it is
 * too late; then the removal, with the deletion record the store keeps and a line in the audit
 * trail, neither holding the person's details. A request may give an e-mail address and a phone
 * number together: what either finds is listed once, and each is served as a request of its own
 * (its deletion record and its audit line), the e-mail address first.
 */
import type { LeadRecord } from '../leads/lead.ts';
import { DELETION_RECORD_TEXT } from '../leads/retention.ts';
import type { Chosen, LeadRecords, PersonMatch, Removed } from '../leads/store.ts';
import { plural } from '../lib/text.ts';
import type { OfficeInbox, SuspectedSpam } from './store.ts';

/** Whom a deletion request names: an e-mail address, a phone number, or both (as `personOf` reads them). */
export type PersonRequest = PersonMatch | readonly PersonMatch[];

const matchesOf = (request: PersonRequest): readonly PersonMatch[] => ('kind' in request ? [request] : request);

export interface DeletionPreview {
  /** The person's leads, newest first. */
  leads: LeadRecord[];
  /** The person's submissions the spam checks caught, newest first. */
  spam: SuspectedSpam[];
  /** What a deletion would remove; given both identifiers, its counts are each one's added (officeEmails are listed once). */
  removed: Removed;
  /** Which of the request's identifiers found each lead and caught submission, by id. */
  foundBy: Map<string, Array<PersonMatch['kind']>>;
}

type Lookup = Pick<OfficeInbox, 'personLeads' | 'personSpam'>;

/** The leads and caught submissions that any of `request`'s identifiers finds, each once, newest first, and which found each. */
async function lookUp(inbox: Lookup, request: PersonRequest): Promise<Pick<DeletionPreview, 'leads' | 'spam' | 'foundBy'>> {
  const found = await Promise.all(matchesOf(request).map(async (m) => ({ kind: m.kind, leads: await inbox.personLeads(m), spam: await inbox.personSpam(m) })));
  const foundBy: DeletionPreview['foundBy'] = new Map();
  const leads = new Map<string, LeadRecord>();
  const spam = new Map<string, SuspectedSpam>();
  for (const each of found) {
    for (const item of [...each.leads, ...each.spam]) foundBy.set(item.id, [...(foundBy.get(item.id) ?? []), each.kind]);
    for (const lead of each.leads) leads.set(lead.id, lead);
    for (const caught of each.spam) spam.set(caught.id, caught);
  }
  // The stores' orders: leads by receipt then id, newest first; caught submissions newest first, then by id.
  const newest = (a: number, b: number) => b - a;
  return {
    leads: [...leads.values()].sort((a, b) => newest(Date.parse(a.receivedAt), Date.parse(b.receivedAt)) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)),
    spam: [...spam.values()].sort((a, b) => newest(a.receivedAt.getTime(), b.receivedAt.getTime()) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    foundBy,
  };
}

export async function previewDeletion(deps: { inbox: Lookup; records: Pick<LeadRecords, 'countPerson'> }, request: PersonRequest): Promise<DeletionPreview> {
  const [found, counts] = await Promise.all([lookUp(deps.inbox, request), Promise.all(matchesOf(request).map((m) => deps.records.countPerson(m)))]);
  const removed = counts.reduce(added);
  removed.officeEmails = [...new Set(removed.officeEmails)].sort();
  return { ...found, removed };
}

/** Two deletions' counts as one. */
function added(a: Removed, b: Removed): Removed {
  const sum: Removed = {
    leads: a.leads + b.leads,
    idempotencyKeys: a.idempotencyKeys + b.idempotencyKeys,
    fingerprints: a.fingerprints + b.fingerprints,
    suspectedSpam: a.suspectedSpam + b.suspectedSpam,
    officeEmails: [...a.officeEmails, ...b.officeEmails],
  };
  return a.kept || b.kept ? { ...sum, kept: { leads: 0, suspectedSpam: 0 } } : sum;
}

/**
 * Removes the person's data (or, given `chosen`, the ones the office ticked), with the deletion
 * record and the audit trail's line (who did it, how many were removed and kept, by which kind of
 * identifier) in the same transaction.
 */
export async function deleteOnRequest(
  records: Pick<LeadRecords, 'deletePerson'>,
  match: PersonMatch,
  actor: string,
  now = new Date(),
  chosen?: Chosen,
): Promise<Removed> {
  const by = kindWords(match.kind);
  return records.deletePerson(
    match,
    { kind: match.kind, deletedAt: now },
    (removed) => ({
      at: now,
      actor,
      action: 'deleted on request',
      detail:
        (removed.leads + removed.suspectedSpam === 0
          ? `Served a deletion request by ${by}: nothing ${removed.kept ? 'ticked was left' : 'matched'}, so nothing was removed.`
          : `Deleted ${removedWords(removed)} on request, found by ${by}.`) + keptWords(removed),
    }),
    chosen,
  );
}

/**
 * Removes what the office ticked of what `request` finds: as `deleteOnRequest` for each of its
 * identifiers (a record and an audit line each, the e-mail address first; what the first removed,
 * the second no longer finds). Kept: what either identifier still finds afterwards, each once.
 */
export async function deleteTicked(
  deps: { records: Pick<LeadRecords, 'deletePerson'>; inbox: Lookup },
  request: PersonRequest,
  actor: string,
  now: Date,
  chosen: Chosen,
): Promise<Removed> {
  const matches = [...matchesOf(request)].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'email' ? -1 : 1));
  if (matches.length === 1) return deleteOnRequest(deps.records, matches[0]!, actor, now, chosen);
  const each: Removed[] = [];
  for (const match of matches) each.push(await deleteOnRequest(deps.records, match, actor, now, chosen));
  const left = await lookUp(deps.inbox, matches);
  return { ...each.reduce(added), kept: { leads: left.leads.length, suspectedSpam: left.spam.length } };
}

/** What a selective deletion left, as a sentence to follow another (" Kept 1 lead, not ticked."); nothing when all went. */
function keptWords(removed: Pick<Removed, 'kept'>): string {
  const kept = removed.kept;
  return kept && kept.leads + kept.suspectedSpam > 0 ? ` Kept ${removedWords(kept)}, not ticked.` : '';
}

/** A kind of identifier in words: "e-mail address", "phone number". */
const kindWords = (kind: PersonMatch['kind']) => (kind === 'email' ? 'e-mail address' : 'phone number');

/** What a request gave, in words: "this e-mail address", "this phone number", or "this e-mail address or this phone number". */
export const requestWords = (request: PersonRequest): string =>
  matchesOf(request)
    .map((m) => `this ${kindWords(m.kind)}`)
    .join(' or ');

/** What a served deletion request did, in the office's words, a sentence each: its page and its command say the same. */
export function deletionResult(removed: Pick<Removed, 'leads' | 'suspectedSpam' | 'kept'>, request: PersonRequest): string[] {
  const kept = keptWords(removed).trim();
  if (removed.leads + removed.suspectedSpam === 0)
    return [
      removed.kept
        ? 'What was ticked is no longer stored (deleted meanwhile), so nothing was removed.'
        : `Nothing matched ${requestWords(request)}, so nothing was removed.`,
      ...(kept ? [kept] : []),
      `A deletion record was kept for ${DELETION_RECORD_TEXT}: it shows the request was served.`,
    ];
  return [
    `Removed ${removedWords(removed)}.`,
    ...(kept ? [kept] : []),
    `A deletion record was kept for ${DELETION_RECORD_TEXT}: the time, the kind of identifier and the count, none of the person’s details.`,
    'Backups made before now still hold these leads until they rotate out.',
  ];
}

/** What a deletion removes, or would remove, in words: "2 leads", "1 submission from suspected spam", or both. */
export function removedWords(removed: Pick<Removed, 'leads' | 'suspectedSpam'>): string {
  return [
    removed.leads > 0 && plural(removed.leads, 'lead'),
    removed.suspectedSpam > 0 && plural(removed.suspectedSpam, 'submission from suspected spam', 'submissions from suspected spam'),
  ]
    .filter(Boolean)
    .join(' and ');
}

/** The form of a lead in the office's words. */
export const formWords = (form: LeadRecord['formType']) => (form === 'quote' ? 'quote request' : 'contact message');
