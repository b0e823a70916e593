/** A note on a lead, from the inbox: kept with who wrote it and when, then back to the same view, at that lead. */
import type { APIRoute } from 'astro';
import { officeText } from '../../http/office-guard.ts';
import { addNote, hiddenCharacterWords } from '../../office/notes.ts';
import { NOTE_MAX_LENGTH } from '../../office/store.ts';
import { backTo } from '../../office/inbox-filters.ts';

export const prerender = false;

export const POST: APIRoute = async ({ locals, request }) => {
  const office = locals.office!;
  const data = await request.formData();
  const reference = String(data.get('reference') ?? '');
  const added = await addNote(office.powers.inbox, reference, String(data.get('note') ?? ''), office.user);
  if (added.kind === 'empty') return officeText(400, 'The note is empty. Nothing was saved: go back and write what was said.');
  if (added.kind === 'too long')
    return officeText(400, `The note has ${added.length} characters; a note takes at most ${NOTE_MAX_LENGTH}. Nothing was saved: go back and shorten it.`);
  if (added.kind === 'hidden characters') return officeText(400, hiddenCharacterWords);
  if (added.kind === 'no such lead')
    return officeText(404, 'There is no lead with this reference any more (it may have been deleted on request). Nothing was saved.');
  const to = backTo(String(data.get('back') ?? ''));
  to.searchParams.set('noted', reference);
  return new Response(null, { status: 303, headers: { Location: `${to.pathname}${to.search}#lead-${encodeURIComponent(reference)}` } });
};
