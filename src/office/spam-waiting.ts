/**
 * How many caught submissions wait in suspected spam (one marked "not a customer" waits no more), as
 * the office shows it on every page (its menu, the inbox's counts, the spam page): one count of the
 * store's for a request, however many parts of the page ask, and at most `SPAM_COUNTED_UP_TO`
 * counted, so that a flood of spam costs no more than a few.
 */
import { countWords } from './overview.ts';
import type { OfficeOverview } from './store.ts';

export const SPAM_COUNTED_UP_TO = 1000;

/** The request's count, by its signed-in office (`locals.office`, made anew for each request by the office guard). */
const counted = new WeakMap<object, Promise<number>>();

/** How many wait in suspected spam, up to `SPAM_COUNTED_UP_TO`: read once per request. */
export function spamWaiting(office: { powers: { overview: Pick<OfficeOverview, 'spamWaiting'> } }): Promise<number> {
  let count = counted.get(office);
  if (!count) counted.set(office, (count = office.powers.overview.spamWaiting(SPAM_COUNTED_UP_TO)));
  return count;
}

/** The count as the page writes it: "3", "1,234", or "1,000+" past what is counted. */
export const spamCountWords = (n: number): string => (n >= SPAM_COUNTED_UP_TO ? `${countWords(SPAM_COUNTED_UP_TO)}+` : countWords(n));
