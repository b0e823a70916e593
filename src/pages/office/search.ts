/**
 * A search of the inbox or the spam folder, posted: what was typed (a name, an e-mail, a phone
 * number) is kept with the session under a random handle, and the page to show comes back as
 * `?search=<handle>` beside the filters, so that no URL, history entry, redirect or access log ever
 * holds it. The filters stay in the address, checked (they name nobody), so a view can be bookmarked.
 */
import type { APIRoute } from 'astro';
import { rememberSearch } from '../../office/session.ts';
import { SEARCH_MAX_LENGTH } from '../../office/search.ts';
import { inboxAddress } from '../../office/inbox-filters.ts';

export const prerender = false;

/** The filters each list keeps in its address, as the form names them. */
const FILTERS = { inbox: ['form', 'status', 'owner', 'since', 'until', 'zip', 'visit'], spam: [] } as const;
const PATHS = { inbox: '/office', spam: '/office/spam' } as const;

export const POST: APIRoute = async ({ locals, request }) => {
  const office = locals.office!;
  const data = await request.formData();
  const list = data.get('list') === 'spam' ? 'spam' : 'inbox';
  const given: Array<[string, string]> = [];
  const typed = String(data.get('q') ?? '')
    .trim()
    .slice(0, SEARCH_MAX_LENGTH);
  if (typed !== '') given.push(['search', await rememberSearch(office.powers.sessions, office.token, typed)]);
  for (const name of FILTERS[list]) given.push([name, String(data.get(name) ?? '')]);
  // Only checked values reach the address: what was typed in the wrong box is left out, and the page says so.
  const query = inboxAddress(given).toString();
  return new Response(null, { status: 303, headers: { Location: `${PATHS[list]}${query ? `?${query}` : ''}` } });
};
