/**
 * What both stores share of the team's load (issue 55, item 4): the mark on a lead given to someone by another, kept for them
 * until they open its own page or act on it (`lead_given_marks`, migration 22), and the order of "Mine".
 */
import type { LeadWork } from '../office/store.ts';

/** Who sends a lead's form (each part carries it): a lead given to them is no longer marked for them. */
export const givenMarkActor = (work: LeadWork): string | undefined => work.status?.by ?? work.note?.note.by ?? work.owner?.audit.actor;

/** The mark an owner change leaves: given to an account by another (not taken by oneself, not let go), whom, by whom and when. */
export function givenMark(owner: NonNullable<LeadWork['owner']>): { to: string; by: string; at: Date } | undefined {
  const { to, audit } = owner;
  return to !== undefined && to !== audit.actor ? { to, by: audit.actor, at: audit.at } : undefined;
}

/**
 * The open leads, most urgent first (`InboxQuery.open`): the waiting ones by their answer-by instant (then receipt), then
 * those contacted, newest first. `table` qualifies the columns where the query joins another table.
 */
export const openOrder = (table = '') =>
  `${table}status <> 'new', CASE WHEN ${table}status = 'new' THEN ${table}answer_by END, ` +
  `CASE WHEN ${table}status = 'new' THEN ${table}received_at END, ${table}received_at DESC, ${table}id DESC`;
