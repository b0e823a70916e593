/**
 * The office's clock: times shown and dates read in the company's time zone (`content/company.yaml`),
 * so that a lead sent at 5 pm is on the day it was sent, and "11/01/2026" means the office's 1 November.
 */
import { DAY_MS, dateFormat, parseIsoDate } from '../lib/time.ts';

const parts = (at: Date, timeZone: string) => {
  const p = Object.fromEntries(
    dateFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return { year: +p.year!, month: +p.month!, day: +p.day!, hour: +p.hour!, minute: +p.minute!, second: +p.second! };
};

/** How far `timeZone` is ahead of UTC at `at`, in milliseconds. */
function offsetMs(at: Date, timeZone: string): number {
  const p = parts(at, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(at.getTime() / 1000) * 1000;
}

/** The moment the local day `year-month-day` begins in `timeZone` (after a clock change, too). */
export function startOfLocalDay(year: number, month: number, day: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day);
  let guess = wall - offsetMs(new Date(wall), timeZone);
  guess = wall - offsetMs(new Date(guess), timeZone);
  // Where a clock change skips midnight (America/Santiago in September), the day begins at the
  // first moment that exists: step forward to it.
  for (let i = 0; i < 4 && parts(new Date(guess), timeZone).day !== day; i++) guess += 60 * 60 * 1000;
  return new Date(guess);
}

/**
 * A date as the office writes it, as the moment its day begins in `timeZone`: `2026-11-01`,
 * `11/01/2026` or `11/1/2026` (U.S. order); an ISO 8601 date-time with a zone is taken as it says.
 */
export function parseLocalDate(text: string, timeZone: string): Date | undefined {
  const trimmed = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed);
  const [year, month, day] = iso ? [+iso[1]!, +iso[2]!, +iso[3]!] : us ? [+us[3]!, +us[1]!, +us[2]!] : [];
  if (year === undefined) return trimmed.includes('T') ? parseIsoDate(trimmed) : undefined;
  const check = new Date(Date.UTC(year, month! - 1, day!));
  if (check.getUTCMonth() !== month! - 1 || check.getUTCDate() !== day) return undefined;
  return startOfLocalDay(year, month!, day!, timeZone);
}

/** The day after a local date's day: `--until 11/30/2026` includes the 30th. */
export function nextLocalDay(start: Date, timeZone: string): Date {
  const p = parts(new Date(start.getTime() + 36 * 60 * 60 * 1000), timeZone);
  return startOfLocalDay(p.year, p.month, p.day, timeZone);
}

/** `2026-11-23 17:03`: a spreadsheet sorts it and reads it as a date and time. */
export function spreadsheetTime(at: Date, timeZone: string): string {
  const p = parts(at, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}`;
}

/** "6 pm", "12:30 pm": a time of day as the office says it. */
export function timeOfDay(at: Date, timeZone: string): string {
  const p = Object.fromEntries(
    dateFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', hourCycle: 'h12' })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return `${p.hour}${p.minute === '00' ? '' : `:${p.minute}`} ${String(p.dayPeriod).toLowerCase()}`;
}

/**
 * `Mon 23 Nov`: a day as the office reads it everywhere (the style of the days a customer chose on
 * the form), with its year when it is not this year's (`Mon 23 Nov 2025`).
 */
export function dayText(at: Date, timeZone: string, now = new Date()): string {
  const sameYear = localDateInput(at, timeZone).slice(0, 4) === localDateInput(now, timeZone).slice(0, 4);
  return dateFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }) })
    .format(at)
    .replace(',', '');
}

/** `Mon 23 Nov, 5:03 pm`: a moment as the office's pages and e-mail show it (one style, `dayText` and `timeOfDay`). */
export function shortTime(at: Date, timeZone: string, now = new Date()): string {
  return `${dayText(at, timeZone, now)}, ${timeOfDay(at, timeZone)}`;
}

/** `PST` or `PDT`: the zone's short name at `at`. */
export function zoneAbbreviation(at: Date, timeZone: string): string {
  return (
    dateFormat('en-US', { timeZone, timeZoneName: 'short' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? timeZone
  );
}

/** The local date `YYYY-MM-DD` of a moment, as a date field shows it. */
export function localDateInput(at: Date, timeZone: string): string {
  return spreadsheetTime(at, timeZone).slice(0, 10);
}

/**
 * "This week" as the office reads it: from today to the coming Sunday, both included (on a Sunday,
 * that day alone), as `YYYY-MM-DD` days in `timeZone`: what the store's `visitBetween` takes.
 */
export function thisWeek(now: Date, timeZone: string): { from: string; to: string } {
  const from = localDateInput(now, timeZone);
  const noon = Date.parse(`${from}T12:00:00Z`);
  const toSunday = (7 - new Date(noon).getUTCDay()) % 7;
  return { from, to: new Date(noon + toSunday * DAY_MS).toISOString().slice(0, 10) };
}
