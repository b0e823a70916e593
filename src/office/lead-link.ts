/**
 * The address of one lead (or caught submission) asked for by its reference, within the list it is
 * followed from: that list's search (by its handle alone, never its words) and filters kept
 * (`backTo`), the reference added, so that the lead opens in that list and coming back finds the
 * list as it was.
 */
import { backTo } from './inbox-filters.ts';

/** `/office?search=…&lead=Q-P7RH-Q4#lead-Q-P7RH-Q4`: the lead `reference` within the inbox's view `back`, scrolled to `anchor`. */
export function leadLink(back: string, reference: string, anchor = `lead-${reference}`): string {
  const to = backTo(back);
  to.searchParams.delete('lead');
  to.searchParams.set('lead', reference);
  return `${to.pathname}${to.search}#${anchor}`;
}
