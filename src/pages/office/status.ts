/** Setting a lead's status from the inbox: recorded with who and when, then back to the same view, at that lead. */
import type { APIRoute } from 'astro';
import { LEAD_STATUSES, type LeadStatus } from '../../office/store.ts';
import { officeText } from '../../http/office-guard.ts';
import { changeStatus } from '../../office/status.ts';
import { backTo } from '../../office/inbox-filters.ts';

export const prerender = false;

export const POST: APIRoute = async ({ locals, request }) => {
  const office = locals.office!;
  const data = await request.formData();
  const reference = String(data.get('reference') ?? '');
  const status = String(data.get('status') ?? '') as LeadStatus;
  const back = String(data.get('back') ?? '');
  const to = backTo(back);
  if (!LEAD_STATUSES.includes(status)) return officeText(400, 'Choose new, contacted or done.');
  const changed = await changeStatus(office.powers.inbox, { reference, status }, office.user);
  if (changed.kind === 'no such lead')
    return officeText(404, 'There is no lead with this reference any more (it may have been deleted on request). Nothing was changed.');
  to.searchParams.set('changed', reference);
  to.searchParams.set('to', status);
  return new Response(null, { status: 303, headers: { Location: `${to.pathname}${to.search}#lead-${encodeURIComponent(reference)}` } });
};
