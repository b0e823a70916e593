/**
 * The promise made to each customer, in the office's words: when a waiting lead must be answered by
 * ("answer by Fri 6 pm"), whether that is today or already past, and whether its first contact
 * came in time. From the answer-by instant stored with the lead (`LeadRecord.answerBy`).
 */
import { dateFormat } from '../lib/time.ts';
import { localDateInput } from './local-time.ts';

const DAY_MS = 86_400_000;

/** Where a waiting lead stands at `now`: past its answer-by, due by the end of the office's day, or later. */
export type PromiseState = 'late' | 'today' | 'later';

export function promiseState(answerBy: Date, now: Date, timeZone: string): PromiseState {
  if (answerBy.getTime() < now.getTime()) return 'late';
  return localDateInput(answerBy, timeZone) === localDateInput(now, timeZone) ? 'today' : 'later';
}

/** "6 pm", "12:30 pm": a time of day as the office says it. */
function timeWords(at: Date, timeZone: string): string {
  const p = Object.fromEntries(
    dateFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', hourCycle: 'h12' })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return `${p.hour}${p.minute === '00' ? '' : `:${p.minute}`} ${String(p.dayPeriod).toLowerCase()}`;
}

/**
 * The answer-by time in words, as near as it is: "today 6 pm", "Fri 6 pm" within the week around
 * `now`, "Mon, Dec 7, 6 pm" further off.
 */
export function answerByWords(answerBy: Date, now: Date, timeZone: string): string {
  if (localDateInput(answerBy, timeZone) === localDateInput(now, timeZone)) return `today ${timeWords(answerBy, timeZone)}`;
  const near = Math.abs(answerBy.getTime() - now.getTime()) < 6 * DAY_MS;
  const day = dateFormat('en-US', { timeZone, weekday: 'short', ...(near ? {} : { month: 'short', day: 'numeric' }) }).format(answerBy);
  return `${day}${near ? '' : ','} ${timeWords(answerBy, timeZone)}`;
}

/** The line of a waiting lead: "Late: answer by Mon 6 pm", "Due today: answer by today 6 pm", "Answer by Tue 6 pm". */
export function waitingWords(answerBy: Date, now: Date, timeZone: string): string {
  const when = `answer by ${answerByWords(answerBy, now, timeZone)}`;
  const state = promiseState(answerBy, now, timeZone);
  return state === 'late' ? `Late: ${when}` : state === 'today' ? `Due today: ${when}` : `${when.charAt(0).toUpperCase()}${when.slice(1)}`;
}

/** Whether a first contact at `contactAt` kept the promise of `answerBy`: at or before it. */
export const answeredInTime = (contactAt: Date, answerBy: Date) => contactAt.getTime() <= answerBy.getTime();
