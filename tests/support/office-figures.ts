/**
 * The office's figures two ways: as its first page reads them from a store (`shownFigures`: the one place to adapt when the
 * ports change), and as they should be, worked out with plain code and the domain's clock (`workingMinutes`) from the leads
 * believed to exist (`expectedFigures`), never with a store's own aggregation. The figures contract test sets them against
 * each other after every step of its model; the soak (`npm run soak`) against the rows it finds after its crashes.
 */
import type { CallBackPromise } from '../../src/leads/next-step.ts';
import { workingMinutes } from '../../src/leads/next-step.ts';
import { localDateInput, startOfLocalDay } from '../../src/office/local-time.ts';
import { chartSeries, chartWeeks, weekStarts } from '../../src/office/overview.ts';
import { promiseChartWeeks } from '../../src/office/promise-chart.ts';
import type { InboxFilter, LeadStatus } from '../../src/office/store.ts';
import type { Store } from '../../src/store/index.ts';

/** What the figures are kept by (the office's time zone, its promise, the quote form's services), and a range of dates the inbox counts. */
export interface FiguresSetting {
  timeZone: string;
  promise: CallBackPromise;
  services: readonly string[];
  range: { since: Date; until: Date };
}

/** A lead as the figures count it (`phone`: its ten digits). */
export interface CountedLead {
  reference: string;
  name: string;
  email: string;
  phone: string;
  form: 'quote' | 'support';
  service?: string;
  receivedAt: Date;
  answerBy: Date;
  status: LeadStatus;
  firstContactAt?: Date;
}

/** The leads and caught submissions believed to exist, and what the office types in the search box with the leads it must find. */
export interface FiguresModel<L extends CountedLead> {
  leads: L[];
  spam: readonly unknown[];
  searches: Array<{ text: string; finds: (lead: L) => boolean }>;
}

/** The inbox's views whose leads are counted: all, each status, each form, the urgent ones (waiting), a range of dates. */
const views = (range: FiguresSetting['range']): Record<string, InboxFilter> => ({
  ...{ all: {}, new: { status: 'new' }, contacted: { status: 'contacted' }, done: { status: 'done' } },
  ...{ quote: { form: 'quote' }, support: { form: 'support' }, urgent: { urgent: true }, range },
});

/** Everything the office is shown at `now`, read as its first page reads it, and the leads each of `searches` finds. */
export async function shownFigures(store: Store, now: Date, setting: FiguresSetting, searches: readonly string[] = []) {
  const { timeZone, services } = setting;
  const today = localDateInput(now, timeZone);
  const todayBegan = startOfLocalDay(+today.slice(0, 4), +today.slice(5, 7), +today.slice(8), timeZone);
  const weeks = weekStarts(now, timeZone);
  const found = async (search: string) => (await store.inbox({ search, limit: 100, offset: 0 })).map((l) => l.lead.reference).sort();
  const [counts, perWeek, promised, inbox, searched, spamWaiting] = await Promise.all([
    store.statusCounts(todayBegan, now),
    store.leadsPerWeek(weeks, services),
    store.promiseCounts(weeks, now),
    Promise.all(Object.entries(views(setting.range)).map(async ([view, filter]) => [view, await store.inboxCount(filter)])),
    Promise.all(searches.map(async (search) => [search, await found(search)])),
    store.spamWaiting(1_000),
  ]);
  return {
    counts,
    chart: chartWeeks(weeks, perWeek, chartSeries(services), timeZone),
    promise: promiseChartWeeks(weeks, promised, timeZone),
    inbox: Object.fromEntries(inbox),
    found: Object.fromEntries(searched),
    spamWaiting,
  };
}

const DAY_MS = 86_400_000;
const plusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const mondayOf = (date: string) => plusDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));
const label = (monday: string) => new Date(`${monday}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const median = (values: number[]) => {
  const [sorted, mid] = [[...values].sort((a, b) => a - b), values.length >> 1];
  return sorted.length === 0 ? undefined : sorted.length % 2 ? sorted[mid] : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** What the office should be shown at `now`, from the model alone (its local days by Intl). */
export function expectedFigures<L extends CountedLead>(model: FiguresModel<L>, now: Date, setting: FiguresSetting) {
  const { leads } = model;
  const { services, range } = setting;
  const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: setting.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const dayOf = new Map(leads.map((l) => [l, dayFormat.format(l.receivedAt)]));
  const today = dayFormat.format(now);
  const mondays = Array.from({ length: 12 }, (_, i) => plusDays(mondayOf(today), 7 * (i - 11)));
  const inWeek = mondays.map((monday) => leads.filter((l) => mondayOf(dayOf.get(l)!) === monday));
  const part = (l: L) => (l.form === 'support' ? services.length + 1 : services.includes(l.service!) ? services.indexOf(l.service!) : services.length);
  const pastDue = (l: L) => l.status === 'new' && l.answerBy.getTime() < now.getTime();
  const statuses = { new: 0, contacted: 0, done: 0 };
  for (const l of leads) statuses[l.status]++;
  return {
    counts: { ...statuses, since: leads.filter((l) => dayOf.get(l)! >= today).length, late: leads.filter(pastDue).length },
    chart: mondays.map((monday, w) => {
      const counts = Array.from({ length: services.length + 2 }, (_, p) => inWeek[w]!.filter((l) => part(l) === p).length);
      return { monday, label: label(monday), counts, total: inWeek[w]!.length };
    }),
    promise: mondays.map((monday, w) => {
      const contacted = inWeek[w]!.filter((l) => l.firstContactAt);
      const inTime = contacted.filter((l) => l.firstContactAt!.getTime() <= l.answerBy.getTime()).length;
      const [answeredLate, waitingLate] = [contacted.length - inTime, inWeek[w]!.filter((l) => !l.firstContactAt && pastDue(l)).length];
      const minutes = contacted.map((l) => workingMinutes(l.receivedAt, l.firstContactAt!, setting.promise));
      const late = answeredLate + waitingLate;
      return { monday, label: label(monday), inTime, answeredLate, waitingLate, late, contacted: contacted.length, medianMinutes: median(minutes) };
    }),
    inbox: {
      ...{ all: leads.length, ...statuses },
      ...{ quote: leads.filter((l) => l.form === 'quote').length, support: leads.filter((l) => l.form === 'support').length },
      ...{ urgent: statuses.new, range: leads.filter((l) => l.receivedAt >= range.since && l.receivedAt < range.until).length },
    },
    found: Object.fromEntries(model.searches.map((s) => [s.text, leads.flatMap((l) => (s.finds(l) ? [l.reference] : [])).sort()])),
    spamWaiting: model.spam.length,
  };
}
