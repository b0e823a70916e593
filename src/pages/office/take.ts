/** Taking a lead ("I'll handle it"), or letting it go, from the inbox: then back to the same view, at that lead. */
import type { APIRoute } from 'astro';
import { officeText } from '../../http/office-guard.ts';
import { takenWords, takeLead } from '../../office/notes.ts';
import { backTo } from '../../office/inbox-filters.ts';

export const prerender = false;

export const POST: APIRoute = async ({ locals, request }) => {
  const office = locals.office!;
  const data = await request.formData();
  const reference = String(data.get('reference') ?? '');
  const take = data.get('take') === 'yes';
  const taken = await takeLead(office.powers.inbox, reference, take, office.user, { ownOnly: office.role !== 'owner' });
  if (taken.kind === 'no such lead')
    return officeText(404, 'There is no lead with this reference any more (it may have been deleted on request). Nothing was changed.');
  if (taken.kind === 'taken by a colleague') return officeText(409, takenWords(taken.holder));
  const to = backTo(String(data.get('back') ?? ''));
  to.searchParams.set(take ? 'taken' : 'let-go', reference);
  return new Response(null, { status: 303, headers: { Location: `${to.pathname}${to.search}#lead-${encodeURIComponent(reference)}` } });
};
