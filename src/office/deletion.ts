/**
 * Deletion on request, as the office serves it from its page or its command: first the leads that
 * would be removed, by whom and when, so that a number shared by two people is seen before it is
 * too late; then the removal, with the deletion record the store keeps and a line in the audit
 * trail, neither holding the person's details.
 */
import type { LeadRecord } from '../leads/lead.ts';
import { DELETION_RECORD_TEXT } from '../leads/retention.ts';
import type { Chosen, LeadRecords, PersonMatch, Removed } from '../leads/store.ts';
import { plural } from '../lib/text.ts';
import type { OfficeInbox, SuspectedSpam } from './store.ts';

export interface DeletionPreview {
  /** The person's leads, newest first. */
  leads: LeadRecord[];
  /** The person's submissions the spam checks caught, newest first. */
  spam: SuspectedSpam[];
  removed: Removed;
}

export async function previewDeletion(
  deps: { inbox: Pick<OfficeInbox, 'personLeads' | 'personSpam'>; records: Pick<LeadRecords, 'countPerson'> },
  match: PersonMatch,
): Promise<DeletionPreview> {
  const [leads, spam, removed] = await Promise.all([deps.inbox.personLeads(match), deps.inbox.personSpam(match), deps.records.countPerson(match)]);
  return { leads, spam, removed };
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
  const by = match.kind === 'email' ? 'e-mail address' : 'phone number';
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

/** What a selective deletion left, as a sentence to follow another (" Kept 1 lead, not ticked."); nothing when all went. */
function keptWords(removed: Pick<Removed, 'kept'>): string {
  const kept = removed.kept;
  return kept && kept.leads + kept.suspectedSpam > 0 ? ` Kept ${removedWords(kept)}, not ticked.` : '';
}

/** What a served deletion request did, in the office's words, a sentence each: its page and its command say the same. */
export function deletionResult(removed: Pick<Removed, 'leads' | 'suspectedSpam' | 'kept'>, match: PersonMatch): string[] {
  const kept = keptWords(removed).trim();
  if (removed.leads + removed.suspectedSpam === 0)
    return [
      removed.kept
        ? 'What was ticked is no longer stored (deleted meanwhile), so nothing was removed.'
        : `Nothing matched this ${match.kind === 'email' ? 'e-mail address' : 'phone number'}, so nothing was removed.`,
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
