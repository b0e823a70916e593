/**
 * What the office's figures are kept by (decision 0027): the office's clock (its time zone, which
 * draws the local days and weeks, and its opening hours, which measure the time to a first contact)
 * and the services its quote form offers (the chart's parts). A store keeps each lead's local day of
 * receipt, its chart part and its working minutes to a first contact as the lead is written, and
 * counts per day; when the time zone or the services change, it works them out again for every lead.
 */
import { workingMinutes, type CallBackPromise } from '../leads/next-step.ts';
import { perMinute } from '../lib/time.ts';
import { localDateInput } from './local-time.ts';

/** The office's clock and the quote form's services, as the content says them today. */
export interface OfficeClock {
  promise: CallBackPromise;
  services: readonly string[];
}

/** What the kept days depend on: when it changes, every lead's day and part are worked out again. */
export const clockKey = (clock: Pick<OfficeClock, 'services'> & { promise: Pick<CallBackPromise, 'timeZone'> }): string =>
  JSON.stringify([clock.promise.timeZone, [...clock.services]]);

/** The local date (`YYYY-MM-DD`) of `at` on the office's clock: the day a lead is counted in (the leads of one minute share it). */
export const officeDay: (at: Date, timeZone: string) => string = perMinute(localDateInput);

/** The chart's part of a lead: its service when the quote form offers it, otherwise `''` (another service, or a contact message). */
export const chartPart = (services: readonly string[], formType: string, service: unknown): string =>
  formType === 'quote' && typeof service === 'string' && services.includes(service) ? service : '';

/** The working minutes from receipt to a first contact by the office's hours; `null` while the store has no clock yet. */
export const firstContactMinutes = (receivedAt: Date, at: Date, promise: CallBackPromise | undefined): number | null =>
  promise ? workingMinutes(receivedAt, at, promise) : null;

/** The middle value of counted values (`count` times `minutes` each), or the mean of the two middle ones; `undefined` for none. */
export function medianOfCounts(values: ReadonlyArray<{ minutes: number; count: number }>): number | undefined {
  const sorted = values.filter((v) => v.count > 0).sort((a, b) => a.minutes - b.minutes);
  const total = sorted.reduce((n, v) => n + v.count, 0);
  if (total === 0) return undefined;
  const nth = (k: number) => {
    let seen = 0;
    for (const v of sorted) if (k < (seen += v.count)) return v.minutes;
    return sorted.at(-1)!.minutes;
  };
  const middle = total >> 1;
  return total % 2 ? nth(middle) : (nth(middle - 1) + nth(middle)) / 2;
}
