/**
 * The inbox's filters for where and when, as its address holds them: the home's ZIP code
 * (`zip`), and "wants a visit this week" (`visit=this-week`): a day the customer chose, from today
 * to the coming Sunday, in the office's time zone.
 */
import { DAY_MS } from '../lib/time.ts';
import { zip5 } from '../leads/service-area.ts';
import { localDateInput } from './local-time.ts';

/** A ZIP code as the office types it: 5 digits, or ZIP+4 (whose first 5 are searched). */
const ZIP = /^\d{5}(-\d{4})?$/;

/** The ZIP code filter: the 5 digits to search for, or `bad` when what was typed is not a ZIP code (nothing is then filtered by it). */
export function zipFilter(typed: string | null): { zip?: string; bad: boolean } {
  const text = (typed ?? '').trim();
  if (text === '') return { bad: false };
  return ZIP.test(text) ? { zip: zip5(text), bad: false } : { bad: true };
}

/** The value of `visit` that asks for this week's visits. */
export const THIS_WEEK = 'this-week';

/**
 * "This week" as the office reads it: from today to the coming Sunday, both included (on a Sunday,
 * that day alone), as `YYYY-MM-DD` days in `timeZone`: what the store's `visitBetween` takes.
 */
export function thisWeek(now: Date, timeZone: string): { from: string; to: string } {
  const from = localDateInput(now, timeZone);
  const noon = Date.parse(`${from}T12:00:00Z`);
  const toSunday = (7 - new Date(noon).getUTCDay()) % 7;
  return { from, to: new Date(noon + toSunday * DAY_MS).toISOString().slice(0, 10) };
}

/** What the inbox's address says of the last change (one notice at a time). */
const NOTICES = ['changed', 'to', 'noted', 'taken', 'let-go'];

/**
 * Where a change made from the inbox goes back to: the view it was made from (an address under
 * `/office`, without the notice of the change before), else the inbox.
 */
export function backTo(back: string): URL {
  const to = /^\/office(\?[^\s]*)?$/.test(back) ? new URL(back, 'http://office') : new URL('/office', 'http://office');
  for (const name of NOTICES) to.searchParams.delete(name);
  return to;
}

/** The inbox's filter by who has taken a lead: `mine`, `nobody`, or none. */
export const OWNER_FILTERS = { mine: 'Mine', nobody: 'Nobody’s' } as const;
