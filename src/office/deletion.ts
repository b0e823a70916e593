/**
 * Deletion on request, as the office serves it from its page or its command: first the leads that
 * would be removed, by whom and when, so that a number shared by two people is seen before it is
 * too late; then the removal, with the deletion record the store keeps and a line in the audit
 * trail, neither holding the person's details.
 */
import type { LeadRecord } from '../leads/lead.ts';
import { deletePerson } from '../leads/retention.ts';
import type { LeadRecords, PersonMatch, Removed } from '../leads/store.ts';
import { plural } from '../lib/text.ts';
import type { AuditTrail, OfficeInbox } from './store.ts';

export interface DeletionPreview {
  /** The person's leads, newest first. */
  leads: LeadRecord[];
  removed: Removed;
}

export async function previewDeletion(
  deps: { inbox: Pick<OfficeInbox, 'personLeads'>; records: Pick<LeadRecords, 'countPerson'> },
  match: PersonMatch,
): Promise<DeletionPreview> {
  const [leads, removed] = await Promise.all([deps.inbox.personLeads(match), deps.records.countPerson(match)]);
  return { leads, removed };
}

/** Removes the person's data; the audit trail says who did it, how many, and by which kind of identifier. */
export async function deleteOnRequest(
  deps: { records: Pick<LeadRecords, 'countPerson' | 'deletePerson'>; audit: Pick<AuditTrail, 'record'> },
  match: PersonMatch,
  actor: string,
  now = new Date(),
): Promise<Removed> {
  const removed = await deletePerson(deps.records, match, { dryRun: false, now });
  const detail = `${plural(removed.leads, 'lead')} and ${plural(removed.suspectedSpam, 'suspected spam submission')}, found by ${match.kind === 'email' ? 'e-mail address' : 'phone number'}`;
  await deps.audit.record({ at: now, actor, action: 'deleted on request', detail });
  return removed;
}

/** The form of a lead in the office's words. */
export const formWords = (form: LeadRecord['formType']) => (form === 'quote' ? 'quote request' : 'contact message');
