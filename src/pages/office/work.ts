/**
 * One lead's form, sent once after a call: its status, who has it and a note, any of them. Only what
 * the form changed is made (the status and who has it as the form showed them are sent beside the
 * choice, so a colleague's change made meanwhile is not undone by a note), in one transaction, each
 * change with its line in the audit trail. Owners give a lead to any account, named by its opaque
 * id; staff take leads for themselves, or let them go. Then back to the same view, at that lead.
 */
import type { APIRoute } from 'astro';
import { LEAD_STATUSES, NOTE_MAX_LENGTH, type LeadStatus } from '../../office/store.ts';
import { officeText } from '../../http/office-guard.ts';
import { hiddenCharacterWords, takenWords, workLead } from '../../office/notes.ts';
import { backTo } from '../../office/inbox-filters.ts';

export const prerender = false;

const GONE = 'There is no lead with this reference any more (it may have been deleted on request). Nothing was changed.';

export const POST: APIRoute = async ({ locals, request }) => {
  const office = locals.office!;
  const data = await request.formData();
  const field = (name: string) => String(data.get(name) ?? '');
  const reference = field('reference');
  const status = field('status');
  if (status !== '' && !LEAD_STATUSES.includes(status as LeadStatus)) return officeText(400, 'Choose new, contacted or done. Nothing was changed.');
  // Who has it: `me`, `nobody` or an account's id; the same as the form showed is no change.
  const owner = field('owner');
  let to: string | null | undefined;
  if (owner !== '' && owner !== field('was-owner')) {
    if (owner === 'me') to = office.user;
    else if (owner === 'nobody') to = null;
    else if (office.role !== 'owner')
      return officeText(403, 'Staff take leads for themselves: choose “You” to take this one, or ask an owner to give it to a colleague. Nothing was changed.');
    else {
      const account = (await office.powers.accounts.listUsers()).find((u) => u.id === owner);
      if (!account) return officeText(400, 'That account is no longer there (it may have been removed). Nothing was changed: go back and choose again.');
      to = account.email;
    }
  }
  const changedStatus = status !== '' && status !== field('was-status') ? (status as LeadStatus) : undefined;
  const form = { reference, status: changedStatus, owner: to, note: field('note'), ownOnly: office.role !== 'owner' };
  const worked = await workLead(office.powers.inbox, form, office.user);
  if (worked.kind === 'too long')
    return officeText(400, `The note has ${worked.length} characters; a note takes at most ${NOTE_MAX_LENGTH}. Nothing was saved: go back and shorten it.`);
  if (worked.kind === 'hidden characters') return officeText(400, hiddenCharacterWords);
  if (worked.kind === 'no such lead') return officeText(404, GONE);
  if (worked.kind === 'taken by a colleague') return officeText(409, takenWords(worked.holder));
  const back = backTo(field('back'));
  if (worked.kind === 'nothing') back.searchParams.set('unchanged', reference);
  else {
    if (worked.status) {
      back.searchParams.set('changed', reference);
      back.searchParams.set('to', worked.status);
    }
    if (worked.owner) back.searchParams.set({ taken: 'taken', 'let go': 'let-go', given: 'given' }[worked.owner], reference);
    if (worked.noted) back.searchParams.set('noted', reference);
  }
  // Back at the lead itself (its row's id), open, its result said there in words.
  return new Response(null, { status: 303, headers: { Location: `${back.pathname}${back.search}#lead-${encodeURIComponent(reference)}` } });
};
