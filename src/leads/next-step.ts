/**
 * What happens next, in one sentence a caller can read to the customer: built only from what the
 * business promises in its content (it answers every request within so many working days) and
 * its opening hours, and from the time the request came. The day named is the last working day
 * of the promise after the day of the request: sent on a Friday evening, with a promise of one
 * working day from Monday to Friday, it names Monday.
 */

import { dateFormat, perMinute } from '../lib/time.ts';

/** The days of the week as the content names them, Sunday first (as `Date#getUTCDay` counts). */
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** One line of opening hours: the days it covers (0 is Sunday), and its times in minutes after midnight. */
export interface OpeningHours {
  days: number[];
  opens: number;
  closes: number;
  /** As the editors wrote it: "Monday to Friday", "8 am", "6 pm". */
  words: { days: string; opens: string; closes: string };
}

/** What the business promises about answering a request. */
export interface CallBackPromise {
  companyName: string;
  timeZone: string;
  /** It answers every request within this many working days... */
  workingDays: number;
  /** ...a working day being one of these (0 is Sunday). */
  on: number[];
  hours: OpeningHours[];
}

/** The local calendar date and time of `at` in `timeZone`, to the minute. */
const local = perMinute((at: Date, timeZone: string): { y: number; m: number; d: number; weekday: number; minutes: number } => {
  const p = Object.fromEntries(
    dateFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  const [y, m, d] = [Number(p.year), Number(p.month), Number(p.day)];
  return { y, m, d, weekday: new Date(Date.UTC(y, m - 1, d)).getUTCDay(), minutes: Number(p.hour) * 60 + Number(p.minute) };
});

/** A calendar date `days` after `date` (a date with no time of day, as a UTC midnight). */
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 24 * 60 * 60 * 1000);

/** "Monday, November 30". */
const dayWords = (date: Date) => dateFormat('en-US', { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' }).format(date);

/** The hours of a weekday, if the office is open that day. */
const hoursOn = (promise: CallBackPromise, weekday: number) => promise.hours.find((h) => h.days.includes(weekday));

/** "one working day", "2 working days". */
const withinWords = (n: number) => `${n === 1 ? 'one' : String(n)} working day${n === 1 ? '' : 's'}`;

/** The promise alone, for a page that knows no time of request: "Example Cleaning Co. answers every request within one working day". */
export const promiseWords = (promise: CallBackPromise) => `${promise.companyName} answers every request within ${withinWords(promise.workingDays)}`;

/** The sentence for a request received at `receivedAt`; `outsideArea` adds that the home is outside the area served. */
export function whatHappensNext(receivedAt: Date, promise: CallBackPromise, options: { outsideArea?: boolean } = {}): string {
  const now = local(receivedAt, promise.timeZone);
  const today = new Date(Date.UTC(now.y, now.m - 1, now.d));
  // The promise's last working day, counted from the day after the request's.
  let deadline = today;
  for (let counted = 0, i = 1; counted < promise.workingDays && i <= 366; i++) {
    deadline = addDays(today, i);
    if (promise.on.includes(deadline.getUTCDay())) counted++;
  }
  const closing = hoursOn(promise, deadline.getUTCDay());
  const by = closing ? `by ${closing.words.closes} on ${dayWords(deadline)}` : `by the end of ${dayWords(deadline)}`;
  // Open now, or when it opens next.
  const open = hoursOn(promise, now.weekday);
  let opening: string;
  if (open && now.minutes >= open.opens && now.minutes < open.closes) opening = `the office is open now, until ${open.words.closes}`;
  else {
    let next: { date: Date; hours: OpeningHours } | undefined;
    if (open && now.minutes < open.opens) next = { date: today, hours: open };
    for (let i = 1; !next && i <= 7; i++) {
      const day = addDays(today, i);
      const hours = hoursOn(promise, day.getUTCDay());
      if (hours) next = { date: day, hours };
    }
    opening = next ? `its phone is next answered ${next.date === today ? 'today' : `on ${dayWords(next.date)}`}, from ${next.hours.words.opens}` : '';
  }
  const area = options.outsideArea ? '; the home is outside the area it usually serves, so the office will say whether it can come' : '';
  return `${promiseWords(promise)}: expect to hear from the office ${by} at the latest${opening ? ` (${opening})` : ''}${area}.`;
}
