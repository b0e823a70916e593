/**
 * The promise made to each customer, in the office's words: when a waiting lead must be answered by
 * ("answer by Fri 6 pm"), whether that is today, on the next working day or already past (and by how
 * much), and whether its first contact came in time. From the answer-by instant stored with the lead
 * (`LeadRecord.answerBy`) and the office's opening hours (`CallBackPromise`).
 */
import { workingMinutes, type CallBackPromise } from '../leads/next-step.ts';
import { DAY_MS } from '../lib/time.ts';
import { dayText, localDateInput, nextLocalDay, parseLocalDate, timeOfDay } from './local-time.ts';

/** Where a waiting lead stands at `now`: past its answer-by, due by the end of the office's day, or later. */
export type PromiseState = 'late' | 'today' | 'later';

export function promiseState(answerBy: Date, now: Date, timeZone: string): PromiseState {
  if (answerBy.getTime() < now.getTime()) return 'late';
  return localDateInput(answerBy, timeZone) === localDateInput(now, timeZone) ? 'today' : 'later';
}

/**
 * The answer-by time in words, as near as it is: "today 6 pm"; "Fri 6 pm" for a day of the coming
 * week alone; any other day with its date, "Mon 16 Nov, 6 pm" (last Monday is never just "Mon").
 */
export function answerByWords(answerBy: Date, now: Date, timeZone: string): string {
  if (localDateInput(answerBy, timeZone) === localDateInput(now, timeZone)) return `today ${timeOfDay(answerBy, timeZone)}`;
  const coming = answerBy.getTime() > now.getTime() && answerBy.getTime() - now.getTime() < 6 * DAY_MS;
  const day = coming ? dayText(answerBy, timeZone, now).split(' ')[0] : dayText(answerBy, timeZone, now);
  return `${day}${coming ? '' : ','} ${timeOfDay(answerBy, timeZone)}`;
}

/** How late a waiting lead is, in working time: "40 working minutes", "2½ working hours", "3 working days". */
export function lateByWords(answerBy: Date, now: Date, promise: CallBackPromise): string | undefined {
  const minutes = workingMinutes(answerBy, now, promise);
  if (minutes < 1) return undefined;
  if (minutes < 60) return `${minutes} working minute${minutes === 1 ? '' : 's'}`;
  // A working day: the longest day of the opening hours (8 to 6 is 10 hours).
  const day = Math.max(60, ...promise.hours.map((h) => h.closes - h.opens));
  if (minutes < day) {
    const halves = Math.floor(minutes / 30);
    const hours = `${Math.floor(halves / 2)}${halves % 2 ? '½' : ''}`;
    return `${hours} working hour${hours === '1' ? '' : 's'}`;
  }
  const days = Math.floor(minutes / day);
  return `${days} working day${days === 1 ? '' : 's'}`;
}

/**
 * The line of a waiting lead: "Late by 2 working hours: answer by was Mon 16 Nov, 6 pm" (or "Late:
 * answer by was Fri 6 pm" while the office has been closed since), "Due today: answer by today 6 pm",
 * "Answer by Tue 6 pm".
 */
export function waitingWords(answerBy: Date, now: Date, promise: CallBackPromise): string {
  const { timeZone } = promise;
  const when = answerByWords(answerBy, now, timeZone);
  const state = promiseState(answerBy, now, timeZone);
  if (state === 'late') {
    const by = lateByWords(answerBy, now, promise);
    return `Late${by ? ` by ${by}` : ''}: answer by was ${when}`;
  }
  return state === 'today' ? `Due today: answer by ${when}` : `Answer by ${when}`;
}

/** Whether a first contact at `contactAt` kept the promise of `answerBy`: at or before it. */
export const answeredInTime = (contactAt: Date, answerBy: Date) => contactAt.getTime() <= answerBy.getTime();

/** The groups of the waiting leads, most urgent first, as the inbox heads them. */
export const WAITING_GROUPS = ['late', 'today', 'next', 'later'] as const;
export type WaitingGroup = (typeof WAITING_GROUPS)[number];

/** Whether the office works on the local day `date` (`YYYY-MM-DD`): one of its working days, not a closed day. */
const worksOn = (date: string, promise: CallBackPromise) =>
  promise.on.includes(new Date(`${date}T12:00:00Z`).getUTCDay()) && !promise.closed?.some((c) => c.date === date);

/**
 * The waiting leads' groups at `now`, each with its answer-by range and its heading: late (before
 * now), due today (to the end of the office's day), due on the next working day (to its end: after a
 * Friday, Monday's; after a closed day, the next open one), and later (with any lead without an
 * answer-by). `bounds` is what the store counts by (`waitingCounts`) and filters by (`due`).
 */
export function waitingGroups(now: Date, promise: CallBackPromise) {
  const { timeZone } = promise;
  const tomorrow = nextLocalDay(parseLocalDate(localDateInput(now, timeZone), timeZone)!, timeZone);
  let next = tomorrow;
  for (let i = 0; i < 60 && !worksOn(localDateInput(next, timeZone), promise); i++) next = nextLocalDay(next, timeZone);
  const nextEnds = nextLocalDay(next, timeZone);
  const nextDay = dayText(next, timeZone, now);
  const bounds = [now, tomorrow, nextEnds] as const;
  const groups: Record<WaitingGroup, { due: { from?: Date; before?: Date }; heading: string; count: string }> = {
    late: { due: { before: now }, heading: 'Late', count: 'late' },
    today: { due: { from: now, before: tomorrow }, heading: 'Due today', count: 'due today' },
    next: {
      due: { from: tomorrow, before: nextEnds },
      heading: `Due on the next working day, ${nextDay}`,
      count: `due ${next.getTime() === tomorrow.getTime() ? 'tomorrow' : nextDay.split(' ')[0]}`,
    },
    later: { due: { from: nextEnds }, heading: 'Later', count: 'later' },
  };
  return { bounds, groups };
}

/** The group of a waiting lead with the answer-by `answerBy` (none: later), by the groups' `bounds`. */
export function groupOf(answerBy: Date | undefined, bounds: readonly Date[]): WaitingGroup {
  if (!answerBy) return 'later';
  const i = bounds.findIndex((b) => answerBy.getTime() < b.getTime());
  return WAITING_GROUPS[i === -1 ? bounds.length : i]!;
}
