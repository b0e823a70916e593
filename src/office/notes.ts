/**
 * Working a lead as a team: a note on it (who, when, what was said on the call) and who has taken
 * it. Each is one transaction with its line in the audit trail, which says that a note was added,
 * never what it says (a note may hold what the customer told us).
 */
import { safeMultiLineText } from '../leads/schema.ts';
import { NOTE_MAX_LENGTH, type AuditEntry, type LeadStatus, type LeadWork, type OfficeInbox } from './store.ts';
import { STATUS_WORDS } from './audit-words.ts';

export type NoteOutcome =
  { kind: 'added' } | { kind: 'empty' } | { kind: 'too long'; length: number } | { kind: 'hidden characters' } | { kind: 'no such lead' };

/**
 * The office's answer to a note holding a character the intake refuses from customers (control characters, those that
 * turn text around): often pasted in from elsewhere, and never shown as typed.
 */
export const hiddenCharacterWords =
  'The note holds a character that cannot be shown as it was typed (a control character, or one that turns text around), ' +
  'often brought in by copying and pasting. Nothing was saved: go back, clear the note and type it again.';

/** A note as kept: its line breaks as line feeds, trimmed; or why it is not kept (too long, or a character the intake refuses). */
function noteOf(text: string): { note: string } | { kind: 'too long'; length: number } | { kind: 'hidden characters' } {
  const note = text.replace(/\r\n?/g, '\n').trim();
  const length = [...note].length;
  if (length > NOTE_MAX_LENGTH) return { kind: 'too long', length };
  // The intake's own rule for customers' text that may span lines: tab and line feed stay, a zero-width joiner too.
  return safeMultiLineText(note) ? { note } : { kind: 'hidden characters' };
}

/** Adds what `actor` wrote (`text`) to the lead with `reference`. */
export async function addNote(inbox: Pick<OfficeInbox, 'addNote'>, reference: string, text: string, actor: string, now = new Date()): Promise<NoteOutcome> {
  const kept = noteOf(text);
  if (!('note' in kept)) return kept;
  const { note } = kept;
  if (note === '') return { kind: 'empty' };
  const audit = { at: now, actor, action: 'added a note', detail: `Added a note to ${reference}.` } as const;
  return (await inbox.addNote(reference, { at: now, by: actor, text: note }, audit)) ? { kind: 'added' } : { kind: 'no such lead' };
}

/** Staff's answer when a colleague has the lead they would make nobody's (a form changed by hand, or shown before the colleague took it). */
export const takenWords = (holder: string) =>
  `${holder} has this lead now, so you cannot make it nobody’s. Nothing was saved, not even a note: ` +
  'go back and choose “You” to take it over, or ask them or an owner.';

/** What became of taking a lead or letting it go: done, no such lead, or nothing because a colleague has it (`holder`). */
export type TakeOutcome = { kind: 'done' } | { kind: 'no such lead' } | { kind: 'taken by a colleague'; holder: string };

/** `actor` takes the lead with `reference` (`take`), or lets it go, so that it is nobody's: `workLead`'s form with that alone. */
export async function takeLead(
  inbox: Pick<OfficeInbox, 'workLead'>,
  reference: string,
  take: boolean,
  actor: string,
  { now = new Date(), ownOnly = false }: { now?: Date; ownOnly?: boolean } = {},
): Promise<TakeOutcome> {
  const worked = await workLead(inbox, { reference, owner: take ? actor : null, note: '', ownOnly }, actor, now);
  // Taking a lead one has, or letting go of one nobody has, is done already: nothing to write.
  if (worked.kind === 'worked' || worked.kind === 'nothing') return { kind: 'done' };
  if (worked.kind === 'no such lead' || worked.kind === 'taken by a colleague') return worked;
  throw new Error(`taking or letting go of a lead came to "${worked.kind}"`);
}

/**
 * What one form of a lead changes, as `workLead` takes it: a new status, who has it from now on (an account's e-mail, `null`:
 * nobody), a note; each left out (`undefined`, an empty note) when the form did not change it. `ownOnly`: staff's form, which
 * lets go only of the actor's own lead.
 */
export interface LeadForm {
  reference: string;
  status?: LeadStatus;
  owner?: string | null;
  note: string;
  ownOnly?: boolean;
}

/** What became of a lead's form: what it changed (and the status it had), nothing at all, or nothing because of the note or the lead. */
export type WorkOutcome =
  | { kind: 'worked'; from: LeadStatus; status?: LeadStatus; owner?: 'taken' | 'let go' | 'given'; noted: boolean }
  | { kind: 'nothing' }
  | { kind: 'too long'; length: number }
  | { kind: 'hidden characters' }
  | { kind: 'taken by a colleague'; holder: string }
  | { kind: 'no such lead' };

/**
 * Makes what `actor`'s form of one lead changes, sent once: each change (status, who has it, a note) with its own line in the
 * audit trail, all in one transaction; a note too long, or staff letting go of a colleague's lead, changes nothing. A status
 * set records the first contact as any does.
 */
export async function workLead(inbox: Pick<OfficeInbox, 'workLead'>, form: LeadForm, actor: string, now = new Date()): Promise<WorkOutcome> {
  const { reference, status, owner } = form;
  const kept = noteOf(form.note);
  if (!('note' in kept)) return kept;
  const { note } = kept;
  const audit = (action: AuditEntry['action'], detail: string): AuditEntry => ({ at: now, actor, action, detail });
  const given = owner === undefined ? undefined : owner === null ? 'let go' : owner === actor ? 'taken' : 'given';
  const work: LeadWork = {
    ...(status && {
      status: {
        to: status,
        by: actor,
        at: now,
        audit: (from: LeadStatus) => audit('set a status', `Changed ${reference} from ${STATUS_WORDS[from]} to ${STATUS_WORDS[status]}.`),
      },
    }),
    ...(given && {
      owner: {
        to: owner ?? undefined,
        ...(form.ownOnly && given === 'let go' && { onlyFrom: actor }),
        audit: audit(
          'set the owner',
          given === 'taken' ? `Took ${reference}.` : given === 'given' ? `Gave ${reference} to ${owner}.` : `Let go of ${reference}: it is nobody's now.`,
        ),
      },
    }),
    ...(note !== '' && { note: { note: { at: now, by: actor, text: note }, audit: audit('added a note', `Added a note to ${reference}.`) } }),
  };
  if (!work.status && !work.owner && !work.note) return { kind: 'nothing' };
  const done = await inbox.workLead(reference, work);
  if (!done) return { kind: 'no such lead' };
  if (done.takenBy !== undefined) return { kind: 'taken by a colleague', holder: done.takenBy };
  // A status or an owner set to what the lead had already changed nothing (the store wrote no line for it).
  const statusSet = status !== undefined && status !== done.from;
  const ownerSet = given !== undefined && (owner ?? null) !== done.owner;
  if (!statusSet && !ownerSet && note === '') return { kind: 'nothing' };
  return { kind: 'worked', from: done.from, ...(statusSet && { status }), ...(ownerSet && { owner: given }), noted: note !== '' };
}
