/**
 * `workingMinutes` for many leads at once (`src/leads/next-step.ts` works them out one pair at a
 * time, about 40 µs each): what a store needs when it measures every first contact again, after the
 * office's time zone changed or after an upgrade (`keepOfficeClock`, decision 0027).
 */
import type { CallBackPromise } from '../leads/next-step.ts';
import { DAY_MS } from '../lib/time.ts';
import { localDateInput, spreadsheetTime } from './local-time.ts';

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
function workingClock(promise: CallBackPromise, from: Date, to: Date): (a: Date, b: Date) => number {
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

/** The working minutes from receipt to first contact of each of `leads` (`null` without a first contact, or without the office's clock). */
export function firstContactsMeasured(
  leads: ReadonlyArray<{ receivedAt: Date; firstContactAt: Date | null }>,
  promise: CallBackPromise | undefined,
): Array<number | null> {
  const contacted = leads.filter((l) => l.firstContactAt !== null);
  if (!promise || contacted.length === 0) return leads.map(() => null);
  const from = contacted.reduce((t, l) => Math.min(t, l.receivedAt.getTime()), Infinity);
  const to = contacted.reduce((t, l) => Math.max(t, l.firstContactAt!.getTime()), -Infinity);
  const clock = workingClock(promise, new Date(from), new Date(to));
  return leads.map((l) => (l.firstContactAt === null ? null : clock(l.receivedAt, l.firstContactAt)));
}
