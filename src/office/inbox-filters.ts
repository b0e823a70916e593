/**
 * The inbox's filters for where and when, as its address holds them: the home's ZIP code
 * (`zip`), and "wants a visit this week" (`visit=this-week`): a day the customer chose, from today
 * to the coming Sunday, in the office's time zone.
 */
import { DAY_MS } from '../lib/time.ts';
import { zip5 } from '../leads/service-area.ts';
import { localDateInput, nextLocalDay, parseLocalDate } from './local-time.ts';
import { LEAD_STATUSES, type InboxFilter, type LeadStatus } from './store.ts';
import { STATUS_WORDS } from './audit-words.ts';

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

/** What the inbox's address asks to be shown, read once for the list and for its spreadsheet. */
export interface InboxView {
  /** The store's filter, without the search (the address holds only its handle: `handle`). */
  filter: Omit<InboxFilter, 'search'>;
  handle: string;
  whose: keyof typeof OWNER_FILTERS | undefined;
  since: Date | undefined;
  untilDay: Date | undefined;
  /** A date given that could not be read (the list is then not narrowed by it). */
  badDate: boolean;
  zipTyped: string;
  badZip: boolean;
  visitThisWeek: boolean;
  week: { from: string; to: string };
  /** Anything searched or filtered. */
  filtering: boolean;
}

/** Reads the inbox's filters from its address (`q`), for the signed-in `user`, in `timeZone`. */
export function readInboxView(q: URLSearchParams, user: string, timeZone: string, now = new Date()): InboxView {
  const handle = q.get('search') ?? '';
  const form = q.get('form') === 'quote' || q.get('form') === 'support' ? (q.get('form') as 'quote' | 'support') : undefined;
  const status = LEAD_STATUSES.includes(q.get('status') as LeadStatus) ? (q.get('status') as LeadStatus) : undefined;
  const whose = q.get('owner') === 'mine' || q.get('owner') === 'nobody' ? (q.get('owner') as keyof typeof OWNER_FILTERS) : undefined;
  const since = q.get('since') ? parseLocalDate(q.get('since')!, timeZone) : undefined;
  const untilDay = q.get('until') ? parseLocalDate(q.get('until')!, timeZone) : undefined;
  const badDate = Boolean((q.get('since') && !since) || (q.get('until') && !untilDay));
  // Where and when: the home's ZIP code as typed (shown again), and a day chosen from today to Sunday.
  const zipTyped = (q.get('zip') ?? '').trim().slice(0, 20);
  const { zip, bad: badZip } = zipFilter(zipTyped);
  const visitThisWeek = q.get('visit') === THIS_WEEK;
  const week = thisWeek(now, timeZone);
  const filter = {
    form,
    status,
    since,
    until: untilDay && nextLocalDay(untilDay, timeZone),
    postalCode: zip,
    owner: whose === 'mine' ? { email: user } : whose,
    visitBetween: visitThisWeek ? week : undefined,
  };
  const filtering = Boolean(handle !== '' || form || status || whose || since || untilDay || zipTyped !== '' || visitThisWeek);
  return { filter, handle, whose, since, untilDay, badDate, zipTyped, badZip, visitThisWeek, week, filtering };
}

/**
 * The inbox's address without its paging and notices, as the link to its spreadsheet carries it
 * (`/office/export.csv?…`): the same filters select the same leads.
 */
export function filtersOf(q: URLSearchParams): URLSearchParams {
  const kept = new URLSearchParams();
  for (const name of ['search', 'form', 'status', 'owner', 'since', 'until', 'zip', 'visit']) {
    const value = q.get(name);
    if (value !== null && value !== '') kept.set(name, value);
  }
  return kept;
}

/** What a download selected, for the audit trail: no customer's details (a search is named as such, never its text). */
export function viewWords(view: InboxView, given: { since: string; until: string }): string {
  const { filter } = view;
  return [
    filter.form === 'quote' ? 'quote requests' : filter.form === 'support' ? 'contact messages' : 'both forms',
    `${given.since || 'the start'} to ${given.until || 'now'}`,
    filter.status && `status ${STATUS_WORDS[filter.status]}`,
    view.whose === 'mine' && 'taken by the one who downloaded it',
    view.whose === 'nobody' && 'taken by nobody',
    filter.postalCode && `ZIP code ${filter.postalCode}`,
    view.visitThisWeek && 'wanting a visit this week',
    view.handle !== '' && 'matching a search',
  ]
    .filter(Boolean)
    .join(', ');
}
