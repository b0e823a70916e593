/** Setting a lead's status from the inbox: recorded with who and when, then back to the same view. */
import type { APIRoute } from 'astro';
import { LEAD_STATUSES, type LeadStatus } from '../../office/store.ts';

export const prerender = false;

export const POST: APIRoute = async ({ locals, request }) => {
  const { services, office } = locals;
  const data = await request.formData();
  const reference = String(data.get('reference') ?? '');
  const status = String(data.get('status') ?? '') as LeadStatus;
  const back = String(data.get('back') ?? '');
  const to = /^\/office(\?[^\s]*)?$/.test(back) ? new URL(back, 'http://office') : new URL('/office', 'http://office');
  if (!LEAD_STATUSES.includes(status))
    return new Response('Choose new, contacted or done.\n', { status: 400, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const now = new Date();
  const changed = await services.office.inbox.setStatus(reference, status, office!.user, now);
  if (!changed)
    return new Response('There is no lead with this reference any more (it may have been deleted on request). Nothing was changed.\n', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  await services.office.audit.record({ at: now, actor: office!.user, action: 'set a status', detail: `${reference}: ${changed.from} to ${status}` });
  to.searchParams.set('changed', reference);
  to.searchParams.set('to', status);
  return new Response(null, { status: 303, headers: { Location: to.pathname + to.search } });
};
