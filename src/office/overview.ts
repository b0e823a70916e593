/**
 * The inbox at a glance, in the office's words: the last twelve weeks as the office's clock draws
 * them (from Monday, in the company's time zone), the leads of each by form and service, and the
 * lines of the page's "Showing 51–100 of 1,234".
 */
import { DAY_MS } from '../lib/time.ts';
import { localDateInput, startOfLocalDay } from './local-time.ts';
import type { WeekCount } from './store.ts';

/** How many weeks the chart shows. */
export const CHART_WEEKS = 12;

/**
 * The moments the last `count` weeks begin, oldest first, and the moment the current one ends
 * (`count + 1` in all): each a Monday's midnight in `timeZone`, whatever the clock changes.
 */
export function weekStarts(now: Date, timeZone: string, count = CHART_WEEKS): Date[] {
  const today = Date.parse(`${localDateInput(now, timeZone)}T12:00:00Z`);
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  return Array.from({ length: count + 1 }, (_, i) => {
    const day = new Date(monday + (i - count + 1) * 7 * DAY_MS);
    return startOfLocalDay(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), timeZone);
  });
}

/** One part of each week's bar: a service of the quote form, the other services, or the contact form. */
export interface ChartSeries {
  label: string;
  /** Which counts are this part's. */
  matches(count: WeekCount): boolean;
}

/** The parts of each week: each service the quote form offers, "Another service", and contact messages. */
export function chartSeries(services: readonly string[]): ChartSeries[] {
  return [
    ...services.map((service) => ({ label: service, matches: (c: WeekCount) => c.form === 'quote' && c.service === service })),
    { label: 'Another service', matches: (c: WeekCount) => c.form === 'quote' && (c.service === undefined || !services.includes(c.service)) },
    { label: 'Contact messages', matches: (c: WeekCount) => c.form === 'support' },
  ];
}

/** One week of the chart: its Monday (`YYYY-MM-DD`), its name ("Nov 23"), each part's count and the total. */
export interface ChartWeek {
  monday: string;
  label: string;
  counts: number[];
  total: number;
}

/** A week of a chart by its start (`weekStarts`): its Monday (`YYYY-MM-DD`) and its name ("Nov 23"). */
export function weekOf(start: Date, timeZone: string): { monday: string; label: string } {
  const monday = localDateInput(start, timeZone);
  return { monday, label: new Date(`${monday}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }) };
}

/** The chart's weeks, oldest first, from the store's counts (`leadsPerWeek`) for `weeks` (`weekStarts`). */
export function chartWeeks(weeks: readonly Date[], counts: readonly WeekCount[], series: readonly ChartSeries[], timeZone: string): ChartWeek[] {
  return weeks.slice(0, -1).map((start, week) => {
    const mine = counts.filter((c) => c.week === week);
    const parts = series.map((s) => mine.filter((c) => s.matches(c)).reduce((sum, c) => sum + c.count, 0));
    return { ...weekOf(start, timeZone), counts: parts, total: parts.reduce((a, b) => a + b, 0) };
  });
}

/** A count as the page writes it: `1,234`. */
export const countWords = (n: number): string => n.toLocaleString('en-US');

/** "Showing 51–100 of 1,234 leads" (or "Showing 1 lead"), for a page of `shown` leads from `offset` on. */
export function showingWords(offset: number, shown: number, total: number): string {
  const noun = total === 1 ? 'lead' : 'leads';
  if (shown === 0) return total === 0 ? '' : `No more leads here: all ${countWords(total)} ${noun} are on earlier pages.`;
  if (shown === total) return `Showing ${total === 1 ? 'the only lead' : `all ${countWords(total)} leads`}.`;
  return `Showing ${countWords(offset + 1)}–${countWords(offset + shown)} of ${countWords(total)} ${noun}.`;
}
