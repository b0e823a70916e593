/**
 * Working a lead as a team: a note on it (who, when, what was said on the call) and who has taken
 * it. Each is one transaction with its line in the audit trail, which says that a note was added,
 * never what it says (a note may hold what the customer told us).
 */
import { NOTE_MAX_LENGTH, type OfficeInbox } from './store.ts';

export type NoteOutcome = { kind: 'added' } | { kind: 'empty' } | { kind: 'too long'; length: number } | { kind: 'no such lead' };

/** Adds what `actor` wrote (`text`) to the lead with `reference`. */
export async function addNote(inbox: Pick<OfficeInbox, 'addNote'>, reference: string, text: string, actor: string, now = new Date()): Promise<NoteOutcome> {
  const note = text.replace(/\r\n?/g, '\n').trim();
  if (note === '') return { kind: 'empty' };
  const length = [...note].length;
  if (length > NOTE_MAX_LENGTH) return { kind: 'too long', length };
  const audit = { at: now, actor, action: 'added a note', detail: `Added a note to ${reference}.` } as const;
  return (await inbox.addNote(reference, { at: now, by: actor, text: note }, audit)) ? { kind: 'added' } : { kind: 'no such lead' };
}

/** `actor` takes the lead with `reference` (`take`), or lets it go, so that it is nobody's; `false` when there is no such lead. */
export async function takeLead(inbox: Pick<OfficeInbox, 'setOwner'>, reference: string, take: boolean, actor: string, now = new Date()): Promise<boolean> {
  const detail = take ? `Took ${reference}.` : `Let go of ${reference}: it is nobody's now.`;
  return inbox.setOwner(reference, take ? actor : undefined, { at: now, actor, action: 'set the owner', detail });
}
