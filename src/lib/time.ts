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
