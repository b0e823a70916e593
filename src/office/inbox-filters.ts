/**
 * The inbox's address: every value it holds checked (`inboxAddress`), what was left out said in
 * words, and its filters read for the list and its spreadsheet. The filters for where and when: the
 * home's ZIP code (`zip`), and "wants a visit this week" (`visit=this-week`): a day the customer
 * chose, from today to the coming Sunday, in the office's time zone.
 */
import { zip5 } from '../leads/service-area.ts';
import { nextLocalDay, parseLocalDate, thisWeek } from './local-time.ts';
export { thisWeek } from './local-time.ts';
import { ACCOUNT_ID, LEAD_STATUSES, type InboxFilter, type LeadStatus } from './store.ts';
import { STATUS_WORDS } from './audit-words.ts';
import { REFERENCE_PATTERN } from '../leads/reference.ts';
import { WAITING_GROUPS, type WaitingGroup } from './promise-words.ts';

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
 * The value of `view` that lists every lead, newest first. Without it and without a filter, the inbox
 * lists the leads waiting for a first answer, the most urgent (the earliest answer-by) first.
 */
export const EVERY_LEAD = 'all';

/** What the inbox's address says of the last change (one notice at a time), and of what was left out of it. */
const NOTICES = ['changed', 'to', 'noted', 'taken', 'let-go', 'given', 'unchanged', 'tried', 'dropped'];

/**
 * Where a change made from the inbox goes back to: the view it was made from (an address under
 * `/office`, its values checked, without the notices of the change before), else the inbox.
 */
export function backTo(back: string): URL {
  const to = /^\/office(\?[^\s]*)?$/.test(back) ? new URL(back, 'http://office') : new URL('/office', 'http://office');
  const checked = inboxAddress(to.searchParams);
  for (const name of NOTICES) checked.delete(name);
  to.search = checked.toString();
  return to;
}

/** The inbox's filter by who has taken a lead: `mine`, `nobody`, an account by its opaque id (`ACCOUNT_ID`, never its e-mail), or none. */
export const OWNER_FILTERS = { mine: 'Mine', nobody: 'Nobody’s' } as const;

/** An owner filter as the address keeps it: one of `OWNER_FILTERS`, or a value shaped as an account's id (the page checks it is one). */
const ownerFilter = (value: string) => (Object.hasOwn(OWNER_FILTERS, value) || ACCOUNT_ID.test(value) ? value : undefined);

/** A date as the inbox's address keeps it, `YYYY-MM-DD`, from one written so or as `11/01/2026`; `undefined` for anything else. */
export function addressDate(text: string): string | undefined {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  const [year, month, day] = (iso ? [iso[1], iso[2], iso[3]] : us ? [us[3], us[1], us[2]] : []).map(Number);
  if (year === undefined || year < 1000) return undefined;
  const date = new Date(Date.UTC(year, month! - 1, day));
  return date.getUTCMonth() === month! - 1 && date.getUTCDate() === day ? date.toISOString().slice(0, 10) : undefined;
}

const reference = (value: string) => (REFERENCE_PATTERN.test(value) ? value : undefined);
const status = (value: string) => (LEAD_STATUSES.includes(value as LeadStatus) ? value : undefined);

/** Each parameter of the inbox's address, and its value as the address keeps it (`undefined`: not a value it takes). */
const PARAMETERS: Record<string, (value: string) => string | undefined> = {
  // A search is in the address by its handle alone (`rememberSearch`), never by what was typed.
  search: (value) => (/^[A-Za-z0-9_-]{16}$/.test(value) ? value : undefined),
  form: (value) => (value === 'quote' || value === 'support' ? value : undefined),
  status,
  owner: ownerFilter,
  since: addressDate,
  until: addressDate,
  zip: (value) => (ZIP.test(value.trim()) ? value.trim() : undefined),
  visit: (value) => (value === THIS_WEEK ? value : undefined),
  view: (value) => (value === EVERY_LEAD ? value : undefined),
  from: (value) => (value === 'counts' ? value : undefined),
  // One group of the waiting leads (late, due today, due on the next working day, later): what a count at the top opens.
  due: (value) => (WAITING_GROUPS.includes(value as WaitingGroup) ? value : undefined),
  page: (value) => (/^\d{1,5}$/.test(value) && Number(value) <= 10_000 ? String(Number(value)) : undefined),
  changed: reference,
  to: status,
  noted: reference,
  taken: reference,
  'let-go': reference,
  given: reference,
  unchanged: reference,
  tried: reference,
  // One lead, by its reference: the same person's other leads link to it so, with nothing of theirs in the address.
  lead: reference,
};

/** What the inbox says of each value left out of its address, in the office's words. */
export const DROPPED_WORDS = {
  zip: 'The ZIP box held something that is not a ZIP code, so it was left out of the search. A ZIP code is 5 digits, such as 97201.',
  since: 'The “From” box held something that is not a date, so it was left out of the search. Write a date such as 11/01/2026.',
  until: 'The “To” box held something that is not a date, so it was left out of the search. Write a date such as 11/30/2026.',
  owner: 'The “Taken by” box held something that is not one of its choices, so it was left out of the search.',
  form: 'The “Form” box held something that is not one of its choices, so it was left out of the search.',
  status: 'The “Status” box held something that is not one of its choices, so it was left out of the search.',
  visit: '“Wants a visit this week” held something that is not one of its choices, so it was left out of the search.',
  view: 'The address asked for a list the inbox does not have, so it shows the leads waiting for an answer.',
  due: 'The address asked for a group of waiting leads the inbox does not have, so it shows every waiting lead.',
  search: 'The address held a search this page did not make, so it was left out. Type what you are looking for in the search box.',
  page: 'The address held a page number that could not be read, so the list starts at its first page.',
  other: 'The address held something else that the inbox does not use, so it was left out.',
} as const;
type Dropped = keyof typeof DROPPED_WORDS;
const isDropped = (word: string): word is Dropped => Object.hasOwn(DROPPED_WORDS, word);

/**
 * The inbox's address as it may be kept: each value checked (a ZIP code, a date, one of the inbox's own words, a reference, a
 * search's handle), the first of each name; anything else is left out and named under `dropped`, for the page to say so. What was
 * typed in the wrong box (a phone number in the ZIP code's, a name in a date's) never reaches an address, a history, a bookmark or
 * the spreadsheet's link. What it gives is its own answer again, so an address it made is kept as it is.
 */
export function inboxAddress(given: Iterable<[string, string]>): URLSearchParams {
  const kept = new URLSearchParams();
  const dropped = new Set<Dropped>();
  for (const [name, value] of given) {
    if (name === 'dropped') {
      for (const word of value.split(' ')) if (isDropped(word)) dropped.add(word);
      continue;
    }
    if (value === '' || kept.has(name)) continue;
    const checked = Object.hasOwn(PARAMETERS, name) ? PARAMETERS[name]!(value) : undefined;
    if (checked !== undefined) kept.set(name, checked);
    else dropped.add(isDropped(name) ? name : 'other');
  }
  if (dropped.size > 0) kept.set('dropped', [...dropped].join(' '));
  return kept;
}

/** What the inbox says of the values its address left out (`dropped`), each in words. */
export const droppedWords = (q: URLSearchParams): string[] => [...new Set((q.get('dropped') ?? '').split(' ').filter(isDropped))].map((w) => DROPPED_WORDS[w]);

/** What the inbox's address asks to be shown, read once for the list and for its spreadsheet. */
export interface InboxView {
  /** The store's filter, without the search (the address holds only its handle: `handle`). */
  filter: Omit<InboxFilter, 'search'>;
  handle: string;
  /** `mine`, `nobody`, or an account's opaque id. */
  whose: string | undefined;
  since: Date | undefined;
  untilDay: Date | undefined;
  /** A date given that could not be read (the list is then not narrowed by it). */
  badDate: boolean;
  /** What the page says of the values left out of its address (`inboxAddress`), each in words. */
  dropped: string[];
  zipTyped: string;
  badZip: boolean;
  visitThisWeek: boolean;
  week: { from: string; to: string };
  /** Anything searched or filtered. */
  filtering: boolean;
  /** The waiting leads alone, most urgent first (no filter, and not every lead asked for). */
  urgent: boolean;
  /** Of the waiting leads, one group alone (a count at the top was tapped): the page gives its answer-by range. */
  due: WaitingGroup | undefined;
  /** Opened by a count at the top (a status, or today's leads): the filters stay folded. */
  fromCount: boolean;
}

/** Reads the inbox's filters from its address (`q`), for the signed-in `user`, in `timeZone`. */
export function readInboxView(q: URLSearchParams, user: string, timeZone: string, now = new Date()): InboxView {
  const handle = q.get('search') ?? '';
  const form = q.get('form') === 'quote' || q.get('form') === 'support' ? (q.get('form') as 'quote' | 'support') : undefined;
  const status = LEAD_STATUSES.includes(q.get('status') as LeadStatus) ? (q.get('status') as LeadStatus) : undefined;
  const whose = ownerFilter(q.get('owner') ?? '');
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
    owner: whose === 'mine' ? { email: user } : whose === 'nobody' ? ('nobody' as const) : whose ? { id: whose } : undefined,
    visitBetween: visitThisWeek ? week : undefined,
    // "Mine": my open leads, most urgent first (unless a status is chosen).
    open: whose === 'mine' && !status ? true : undefined,
  };
  const filtering = Boolean(handle !== '' || form || status || whose || since || untilDay || zipTyped !== '' || visitThisWeek);
  // No filter: the waiting leads by urgency, unless every lead was asked for.
  const urgent = !filtering && q.get('view') !== EVERY_LEAD;
  const due = urgent && WAITING_GROUPS.includes(q.get('due') as WaitingGroup) ? (q.get('due') as WaitingGroup) : undefined;
  // A count at the top opens its list with the filters folded (`from=counts`): the list, not the panel, comes first.
  const fromCount = q.get('from') === 'counts';
  return {
    filter: { ...filter, urgent },
    urgent,
    due,
    fromCount,
    handle,
    whose,
    since,
    untilDay,
    badDate,
    dropped: droppedWords(q),
    zipTyped,
    badZip,
    visitThisWeek,
    week,
    filtering,
  };
}

/**
 * The inbox's address without its paging and notices, as the link to its spreadsheet carries it
 * (`/office/export.csv?…`): the same filters select the same leads.
 */
export function filtersOf(q: URLSearchParams): URLSearchParams {
  const checked = inboxAddress(q);
  const kept = new URLSearchParams();
  for (const name of ['search', 'form', 'status', 'owner', 'since', 'until', 'zip', 'visit', 'view']) {
    const value = checked.get(name);
    if (value !== null) kept.set(name, value);
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
    view.whose === 'mine' && `taken by the one who downloaded it${filter.open ? ', still open' : ''}`,
    view.whose === 'nobody' && 'taken by nobody',
    view.whose && !Object.hasOwn(OWNER_FILTERS, view.whose) && 'taken by one colleague',
    filter.postalCode && `ZIP code ${filter.postalCode}`,
    view.visitThisWeek && 'wanting a visit this week',
    view.handle !== '' && 'matching a search',
  ]
    .filter(Boolean)
    .join(', ');
}
