/**
 * Is the promise kept? The office's twelve weeks as the promise chart shows them: of the leads
 * received each week (from Monday, in the office's time zone), how many were first contacted in
 * time, how many late, and the median time to a first contact in working hours. The store counts
 * them per local day as they change (`promiseCounts`, decision 0027); the weeks are summed up here.
 *
 * Late is a first contact after the answer-by instant, or none yet with the answer-by gone by: a
 * lead nobody has called back is the promise broken as surely as one called back too late, and
 * leaving it out would make a week nobody answered look kept. A lead still waiting and not yet
 * due is neither.
 */
import { medianOfCounts } from './figures-clock.ts';
import { countWords, weekOf } from './overview.ts';
import type { PromiseCount } from './store.ts';

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
export const medianMinutes = (values: readonly number[]): number | undefined => medianOfCounts(values.map((minutes) => ({ minutes, count: 1 })));

/** The chart's weeks, oldest first, from the store's counts (`promiseCounts`) for `weeks` (`weekStarts`). */
export function promiseChartWeeks(weeks: readonly Date[], counts: readonly PromiseCount[], timeZone: string): PromiseWeek[] {
  return weeks.slice(0, -1).map((start, i) => {
    const mine = counts.filter((c) => c.week === i);
    const sum = (outcome: PromiseCount['outcome']) => mine.reduce((n, c) => n + (c.outcome === outcome ? c.count : 0), 0);
    const [inTime, answeredLate, waitingLate] = [sum('in time'), sum('late'), sum('waiting')];
    const measured = mine.flatMap((c) => (c.outcome !== 'waiting' && c.minutes !== undefined ? [{ minutes: c.minutes, count: c.count }] : []));
    return {
      ...weekOf(start, timeZone),
      inTime,
      answeredLate,
      waitingLate,
      late: answeredLate + waitingLate,
      contacted: inTime + answeredLate,
      medianMinutes: medianOfCounts(measured),
    };
  });
}

/** "45 min", "2 h", "1 h 30 min": working time as the office reads it (to the minute). */
export function workingHoursWords(minutes: number): string {
  const m = Math.round(minutes);
  const [h, rest] = [Math.floor(m / 60), m % 60];
  return h === 0 ? `${rest} min` : rest === 0 ? `${h} h` : `${h} h ${rest} min`;
}

/** "2.5 h": a median on the chart, where a bar has room for a few signs. */
export const hoursShort = (minutes: number): string => (minutes === 0 ? '0 h' : `${(minutes / 60).toFixed(minutes < 600 ? 1 : 0)} h`);

/**
 * The share answered in time, "92%", or "–" for a week with none due yet: rounded, but never to
 * 100% while one was late, nor to 0% while one was in time.
 */
export function inTimeShare(week: Pick<PromiseWeek, 'inTime' | 'late'>): string {
  const due = week.inTime + week.late;
  if (due === 0) return '–';
  const share = Math.round((100 * week.inTime) / due);
  return `${week.late > 0 ? Math.min(99, share) : share === 0 && week.inTime > 0 ? 1 : share}%`;
}

/** "20 working minutes", "1.5 working hours", "12 working hours": a time to first contact in a sentence. */
export function workingTimeWords(minutes: number): string {
  const m = Math.round(minutes);
  if (m <= 1) return 'a working minute';
  if (m < 60) return `${m} working minutes`;
  const hours = m < 600 ? Number((m / 60).toFixed(1)) : Math.round(m / 60);
  return `${hours} working ${hours === 1 ? 'hour' : 'hours'}`;
}

/**
 * The promise in one line, for the top of the inbox: last week's share answered in time and the
 * median time to a first contact, "Last week 41 of 45 answered in time (91%); half were first
 * contacted within 1.5 working hours." `week` is last week as `promiseChartWeeks` gives it.
 */
export function promiseLineWords(week: PromiseWeek): string {
  const due = week.inTime + week.late;
  if (due === 0) return 'No lead from last week has had to be answered yet.';
  const share =
    `Last week ${countWords(week.inTime)} of ${countWords(due)} answered in time (${inTimeShare(week)})` +
    (week.waitingLate > 0 && week.contacted > 0 ? `, ${countWords(week.waitingLate)} still waiting` : '');
  if (week.contacted === 0) return `${share}; none of them has been contacted yet.`;
  if (week.medianMinutes === undefined) return `${share}.`;
  const within = workingTimeWords(week.medianMinutes);
  if (week.contacted === 1) return `${share}; the one contacted was reached within ${within}.`;
  return week.waitingLate > 0
    ? `${share}; half of the ${countWords(week.contacted)} contacted were reached within ${within}.`
    : `${share}; half were first contacted within ${within}.`;
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
