/**
 * Is the promise kept? The office's twelve weeks as the promise chart shows them: of the leads
 * received each week (from Monday, in the office's time zone), how many were first contacted in
 * time, how many late, and the median time to a first contact in working hours. The store gives
 * the leads that count (`promiseLeads`); the figures are worked out here, when the page is read.
 *
 * Late is a first contact after the answer-by instant, or none yet with the answer-by gone by: a
 * lead nobody has called back is the promise broken as surely as one called back too late, and
 * leaving it out would make a week nobody answered look kept. A lead still waiting and not yet
 * due is neither.
 */
import type { CallBackPromise } from '../leads/next-step.ts';
import { DAY_MS } from '../lib/time.ts';
import { localDateInput, spreadsheetTime } from './local-time.ts';
import { countWords, weekOf } from './overview.ts';
import { answeredInTime } from './promise-words.ts';
import type { PromiseLead } from './store.ts';

/** One week of the promise chart. */
export interface PromiseWeek {
  /** Its Monday (`YYYY-MM-DD`) and its name ("Nov 23"). */
  monday: string;
  label: string;
  /** First contacted at or before the answer-by. */
  inTime: number;
  /** First contacted after it. */
  answeredLate: number;
  /** Not contacted yet, the answer-by gone by. */
  waitingLate: number;
  /** `answeredLate + waitingLate`. */
  late: number;
  /** How many were first contacted (the median's leads). */
  contacted: number;
  /** The median working minutes from receipt to first contact; none without a first contact. */
  medianMinutes: number | undefined;
}

/** The middle value, or the mean of the two middle ones; `undefined` for none. */
export function medianMinutes(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The instant of `minutes` after the local midnight of `date` (`YYYY-MM-DD`) in `timeZone`, right across a clock change. */
function localInstant(date: string, minutes: number, timeZone: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`) + minutes * 60_000;
  let at = wall;
  for (let i = 0; i < 2; i++) at += wall - Date.parse(`${spreadsheetTime(new Date(at), timeZone).replace(' ', 'T')}:00Z`);
  return at;
}

/**
 * `workingMinutes` for many pairs of instants from `from` to `to`: the promise's opening hours of
 * those days laid out once, then each pair found in them by halves. The same minutes (the tests
 * compare them), at a fraction of a microsecond a pair instead of tens: 12,000 leads took 465 ms.
 */
export function workingClock(promise: CallBackPromise, from: Date, to: Date): (a: Date, b: Date) => number {
  const opens: number[] = [];
  const closes: number[] = [];
  const before: number[] = [];
  let sum = 0;
  const last = Date.parse(`${localDateInput(to, promise.timeZone)}T00:00:00Z`) + DAY_MS;
  for (let day = Date.parse(`${localDateInput(from, promise.timeZone)}T00:00:00Z`); day <= last; day += DAY_MS) {
    const date = new Date(day);
    const iso = date.toISOString().slice(0, 10);
    if (!promise.on.includes(date.getUTCDay()) || promise.closed?.some((c) => c.date === iso)) continue;
    const hours = promise.hours.find((h) => h.days.includes(date.getUTCDay()));
    if (!hours) continue;
    const [open, close] = [localInstant(iso, hours.opens, promise.timeZone), localInstant(iso, hours.closes, promise.timeZone)];
    if (close <= open) continue;
    opens.push(open);
    closes.push(close);
    before.push(sum);
    sum += close - open;
  }
  // The working milliseconds from the first opening to `t`.
  const worked = (t: number) => {
    let [lo, hi] = [0, opens.length - 1];
    if (hi < 0 || t <= opens[0]!) return 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (opens[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    return before[lo]! + Math.min(t, closes[lo]!) - opens[lo]!;
  };
  return (a, b) => (b <= a ? 0 : Math.round((worked(b.getTime()) - worked(a.getTime())) / 60_000));
}

/** The chart's weeks, oldest first, from the store's leads (`promiseLeads`) for `weeks` (`weekStarts`). */
export function promiseChartWeeks(weeks: readonly Date[], leads: readonly PromiseLead[], promise: CallBackPromise): PromiseWeek[] {
  if (weeks.length < 2) return [];
  const latest = leads.reduce((t, l) => Math.max(t, l.firstContactAt?.getTime() ?? 0), weeks.at(-1)!.getTime());
  const clock = workingClock(promise, weeks[0]!, new Date(latest));
  const figures = weeks
    .slice(0, -1)
    .map((start) => ({ ...weekOf(start, promise.timeZone), inTime: 0, answeredLate: 0, waitingLate: 0, minutes: [] as number[] }));
  for (const lead of leads) {
    const week = figures[lead.week];
    if (!week) continue;
    if (!lead.firstContactAt) week.waitingLate++;
    else {
      if (answeredInTime(lead.firstContactAt, lead.answerBy)) week.inTime++;
      else week.answeredLate++;
      week.minutes.push(clock(lead.receivedAt, lead.firstContactAt));
    }
  }
  return figures.map(({ minutes, ...week }) => ({
    ...week,
    late: week.answeredLate + week.waitingLate,
    contacted: minutes.length,
    medianMinutes: medianMinutes(minutes),
  }));
}

/** "45 min", "2 h", "1 h 30 min": working time as the office reads it (to the minute). */
export function workingHoursWords(minutes: number): string {
  const m = Math.round(minutes);
  const [h, rest] = [Math.floor(m / 60), m % 60];
  return h === 0 ? `${rest} min` : rest === 0 ? `${h} h` : `${h} h ${rest} min`;
}

/** "2.5 h": a median on the chart, where a bar has room for a few signs. */
export const hoursShort = (minutes: number): string => (minutes === 0 ? '0 h' : `${(minutes / 60).toFixed(minutes < 600 ? 1 : 0)} h`);

/** The share answered in time, "92%", or "–" for a week with none due yet. */
export function inTimeShare(week: Pick<PromiseWeek, 'inTime' | 'late'>): string {
  const due = week.inTime + week.late;
  return due === 0 ? '–' : `${Math.round((100 * week.inTime) / due)}%`;
}

/** The chart's description: the weeks together, then each. */
export function promiseChartWords(weeks: readonly PromiseWeek[]): string {
  const sum = (f: (w: PromiseWeek) => number) => weeks.reduce((s, w) => s + f(w), 0);
  const lead = (n: number) => `${countWords(n)} ${n === 1 ? 'lead' : 'leads'}`;
  const each = weeks.map(
    (w) =>
      `Week of ${w.label}: ${countWords(w.inTime)} in time, ${countWords(w.late)} late` +
      (w.waitingLate > 0 ? ` (${countWords(w.waitingLate)} still waiting)` : '') +
      (w.medianMinutes === undefined ? '' : `, median ${workingHoursWords(w.medianMinutes)}`),
  );
  const late = sum((w) => w.late);
  return (
    `${lead(sum((w) => w.inTime))} answered in time and ${lead(late)} late` +
    (sum((w) => w.waitingLate) > 0 ? `, ${countWords(sum((w) => w.waitingLate))} of them still waiting` : '') +
    `. ${each.join('; ')}.`
  );
}
