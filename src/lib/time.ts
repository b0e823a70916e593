/** Time as the service counts it: pure, imported by the domain and everything above it. */

/** One day in milliseconds. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** An ISO 8601 date (`2026-11-23`) or date-time with a zone (`2026-11-23T17:03:00Z`, `…+01:00`). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** The moment `text` names when it is an ISO 8601 date or date-time with a zone, else `undefined`. */
export function parseIsoDate(text: string): Date | undefined {
  if (!ISO_DATE.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/** Days as people count them in months: 730 days are "24 months". */
export const monthsText = (days: number): string => `${Math.round(days / 30.44)} months`;

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * An `Intl.DateTimeFormat` of `locale` and `options`, made once and kept: making one costs tens of
 * microseconds (its time zone's rules and the locale's patterns are loaded each time), using one
 * about one. A lead's path, an inbox page and an export format times row by row.
 */
export function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/**
 * `compute`, remembered for the last minute and time zone it was asked about: for what depends on
 * the local minute alone (a day's window, the time of day), which every lead of the same minute
 * asks for again. What it returns is shared: read it, never change it.
 */
export function perMinute<T>(compute: (at: Date, timeZone: string) => T): (at: Date, timeZone: string) => T {
  let last: { minute: number; timeZone: string; value: T } | undefined;
  return (at, timeZone) => {
    const minute = Math.floor(at.getTime() / 60_000);
    if (last?.minute !== minute || last.timeZone !== timeZone) last = { minute, timeZone, value: compute(at, timeZone) };
    return last.value;
  };
}
