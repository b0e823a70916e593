/**
 * What happens next, in one sentence a caller can read to the customer: built only from what the
 * business promises in its content (it answers every request within so many working days) and
 * its opening hours, and from the time the request came. The day named is the last working day
 * of the promise after the day of the request: sent on a Friday evening, with a promise of one
 * working day from Monday to Friday, it names Monday.
 */

import { DAY_MS, dateFormat, perMinute } from '../lib/time.ts';
import { askedWays } from './contact-ways.ts';

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

/** A day the office is closed (a holiday), as the editors list it: its local date, and its name if given. */
export interface ClosedDay {
  /** `YYYY-MM-DD`, in the office's time zone. */
  date: string;
  name?: string;
}

/** What the business promises about answering a request. */
export interface CallBackPromise {
  companyName: string;
  timeZone: string;
  /** It answers every request within this many working days... */
  workingDays: number;
  /** ...a working day being one of these (0 is Sunday)... */
  on: number[];
  hours: OpeningHours[];
  /** ...and not one of these: neither a working day nor a day the phone is answered. */
  closed?: readonly ClosedDay[];
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

/** `YYYY-MM-DD` of a calendar date. */
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Whether the office is closed all day on `date` (a calendar date, as a UTC midnight). */
const isClosed = (promise: CallBackPromise, date: Date) => promise.closed?.some((c) => c.date === isoDay(date)) ?? false;

/** The hours of a calendar date, if the office is open that day. */
const hoursOn = (promise: CallBackPromise, date: Date) => (isClosed(promise, date) ? undefined : promise.hours.find((h) => h.days.includes(date.getUTCDay())));

/** The instant of `minutes` after local midnight of `date` (a calendar date) in `timeZone`. */
function instantOf(date: Date, minutes: number, timeZone: string): Date {
  const wall = date.getTime() + minutes * 60_000;
  // The zone's offset at a guess, then again at the answer: right across a clock change.
  let at = new Date(wall);
  for (let i = 0; i < 2; i++) {
    const l = local(at, timeZone);
    const shown = Date.UTC(l.y, l.m - 1, l.d) + l.minutes * 60_000;
    at = new Date(at.getTime() + (wall - shown));
  }
  return at;
}

/** The promise's last working day for a request received on `today` (a calendar date): counted from the day after. */
function lastWorkingDay(today: Date, promise: CallBackPromise): Date {
  let deadline = today;
  for (let counted = 0, i = 1; counted < promise.workingDays && i <= 366; i++) {
    deadline = addDays(today, i);
    if (promise.on.includes(deadline.getUTCDay()) && !isClosed(promise, deadline)) counted++;
  }
  return deadline;
}

/**
 * The instant a request received at `receivedAt` is promised an answer by (its answer-by time): the
 * office's closing time on the promise's last working day, or that day's end when the phone is not
 * answered then. Stored with the lead when it is acknowledged, and never worked out again.
 */
export function answerBy(receivedAt: Date, promise: CallBackPromise): Date {
  // Every lead of the same minute is promised the same instant: worked out once a minute (a lead's path asks it of each).
  const minute = Math.floor(receivedAt.getTime() / 60_000);
  const kept = answers.get(promise);
  if (kept?.minute === minute) return kept.at;
  const at = workOutAnswerBy(receivedAt, promise);
  answers.set(promise, { minute, at });
  return at;
}
const answers = new WeakMap<CallBackPromise, { minute: number; at: Date }>();

function workOutAnswerBy(receivedAt: Date, promise: CallBackPromise): Date {
  const now = local(receivedAt, promise.timeZone);
  const deadline = lastWorkingDay(new Date(Date.UTC(now.y, now.m - 1, now.d)), promise);
  const closing = hoursOn(promise, deadline);
  return closing ? instantOf(deadline, closing.closes, promise.timeZone) : instantOf(addDays(deadline, 1), 0, promise.timeZone);
}

/** "by 6 pm on Monday, November 30" (in the editors' words for the closing time), or "by the end of …" for a day's end. */
function byWords(at: Date, promise: CallBackPromise): string {
  const kept = words.get(promise);
  if (kept?.at === at.getTime()) return kept.words;
  const said = workOutByWords(at, promise);
  words.set(promise, { at: at.getTime(), words: said });
  return said;
}
const words = new WeakMap<CallBackPromise, { at: number; words: string }>();

function workOutByWords(at: Date, promise: CallBackPromise): string {
  const l = local(at, promise.timeZone);
  const date = new Date(Date.UTC(l.y, l.m - 1, l.d));
  if (l.minutes === 0) return `by the end of ${dayWords(addDays(date, -1))}`;
  const closing = promise.hours.find((h) => h.days.includes(date.getUTCDay()) && h.closes === l.minutes);
  const hour = Math.floor(l.minutes / 60);
  const time = `${hour % 12 || 12}${l.minutes % 60 ? `:${String(l.minutes % 60).padStart(2, '0')}` : ''} ${hour < 12 ? 'am' : 'pm'}`;
  return `by ${closing?.words.closes ?? time} on ${dayWords(date)}`;
}

/** "one working day", "2 working days". */
const withinWords = (n: number) => `${n === 1 ? 'one' : String(n)} working day${n === 1 ? '' : 's'}`;

/** The promise alone, for a page that knows no time of request: "Example Cleaning Co. answers every request within one working day". */
export const promiseWords = (promise: CallBackPromise) => `${promise.companyName} answers every request within ${withinWords(promise.workingDays)}`;

/**
 * What a stored lead was promised, as `whatHappensNext` takes it: its answer-by instant (none on a
 * lead stored before it was kept), and the ways the customer allowed (`allowedContact`), if limited.
 */
export const keptPromise = (lead: { answerBy?: string; allowedContact?: readonly string[] }) => ({
  ...(lead.answerBy && { answerBy: new Date(lead.answerBy) }),
  ...(lead.allowedContact && { ways: lead.allowedContact }),
});

/** What the sentence says beside the time: the home outside the area served, the customer's own limits, the instant stored. */
export interface NextStepOptions {
  outsideArea?: boolean;
  answerBy?: Date;
  /** The ways the customer allowed: when only some, the sentence repeats them as their own limits ("by text or e-mail, as you asked"). */
  ways?: readonly string[];
}

/**
 * The sentence for a request received at `receivedAt`, promised an answer by `options.answerBy` (the
 * instant stored with the lead; worked out from the promise when not given); `outsideArea` adds that
 * the home is outside the area served, `ways` the customer's own limits.
 */
export function whatHappensNext(receivedAt: Date, promise: CallBackPromise, options: NextStepOptions = {}): string {
  // The same for every lead of the same minute, answer-by, area and limits: worked out once (a lead's path asks it of each).
  const key = `${Math.floor(receivedAt.getTime() / 60_000)} ${options.answerBy?.getTime() ?? ''} ${options.outsideArea === true} ${askedWays(options.ways)}`;
  const kept = sentences.get(promise);
  if (kept?.key === key) return kept.sentence;
  const sentence = workOutWhatHappensNext(receivedAt, promise, options);
  sentences.set(promise, { key, sentence });
  return sentence;
}
const sentences = new WeakMap<CallBackPromise, { key: string; sentence: string }>();

function workOutWhatHappensNext(receivedAt: Date, promise: CallBackPromise, options: NextStepOptions): string {
  const now = local(receivedAt, promise.timeZone);
  const today = new Date(Date.UTC(now.y, now.m - 1, now.d));
  const by = byWords(options.answerBy ?? answerBy(receivedAt, promise), promise);
  // Open now, or when it opens next.
  const open = hoursOn(promise, today);
  let opening: string;
  if (open && now.minutes >= open.opens && now.minutes < open.closes) opening = `the office is open now, until ${open.words.closes}`;
  else {
    let next: { date: Date; hours: OpeningHours } | undefined;
    if (open && now.minutes < open.opens) next = { date: today, hours: open };
    for (let i = 1; !next && i <= 31; i++) {
      const day = addDays(today, i);
      const hours = hoursOn(promise, day);
      if (hours) next = { date: day, hours };
    }
    opening = next ? `its phone is next answered ${next.date === today ? 'today' : `on ${dayWords(next.date)}`}, from ${next.hours.words.opens}` : '';
  }
  const area = options.outsideArea ? '; the home is outside the area it usually serves, so the office will say whether it can come' : '';
  const asked = askedWays(options.ways);
  return `${promiseWords(promise)}: expect to hear from the office ${asked ? `${asked}, ` : ''}${by} at the latest${opening ? ` (${opening})` : ''}${area}.`;
}

/**
 * The working time between two instants, in minutes: the office's opening hours on the days of its
 * promise (its working days), less its closed days. Sent on Friday at 5 pm and first contacted on
 * Monday at 9 am, with the phone answered 8 to 6 on weekdays, a request waited 120 working minutes.
 */
export function workingMinutes(from: Date, to: Date, promise: CallBackPromise): number {
  if (to <= from) return 0;
  const start = local(from, promise.timeZone);
  let day = new Date(Date.UTC(start.y, start.m - 1, start.d));
  let total = 0;
  for (let i = 0; i <= 400 && day.getTime() <= to.getTime() + DAY_MS; i++, day = addDays(day, 1)) {
    const hours = promise.on.includes(day.getUTCDay()) ? hoursOn(promise, day) : undefined;
    if (!hours) continue;
    const [opens, closes] = [instantOf(day, hours.opens, promise.timeZone), instantOf(day, hours.closes, promise.timeZone)];
    total += Math.max(0, Math.min(closes.getTime(), to.getTime()) - Math.max(opens.getTime(), from.getTime()));
  }
  return Math.round(total / 60_000);
}
