/**
 * One tap after a call, a text or an e-mail that reached nobody: the attempt is kept with the lead
 * (who tried, when, how) with its line in the audit trail, and the lead keeps its status (a waiting
 * lead stays New: an attempt is not a first contact). Then back to the same view, at that lead, with
 * what was recorded said in words.
 */
import type { APIRoute } from 'astro';
import { officeText } from '../../http/office-guard.ts';
import { isAttemptWay, recordAttempt } from '../../office/attempts.ts';
import { backTo } from '../../office/inbox-filters.ts';

export const prerender = false;

export const POST: APIRoute = async ({ locals, request }) => {
  const office = locals.office!;
  const data = await request.formData();
  const field = (name: string) => String(data.get(name) ?? '');
  const reference = field('reference');
  const way = field('way');
  if (!isAttemptWay(way))
    return officeText(400, 'Choose how you tried: “Called, no answer”, “Texted, no answer” or “E-mailed, no answer”. Nothing was recorded.');
  const recorded = await recordAttempt(office.powers.attempts, reference, way, office.user);
  if (recorded.kind === 'no such lead')
    return officeText(404, 'There is no lead with this reference any more (it may have been deleted on request). Nothing was recorded.');
  const back = backTo(field('back'));
  back.searchParams.set('tried', reference);
  // Back at the lead itself (its row's id), open, its result said there in words.
  return new Response(null, { status: 303, headers: { Location: `${back.pathname}${back.search}#lead-${encodeURIComponent(reference)}` } });
};
