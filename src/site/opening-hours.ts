/**
 * The office's hours and working days as the editors write them in `content/company.yaml`
 * ("Monday to Friday", "8 am", "12:30 pm"), read into what the call-back promise computes with
 * (`src/leads/next-step.ts`), or refused with a message in the editors' words.
 */
import { WEEKDAYS, type OpeningHours } from '../leads/next-step.ts';

const dayIndex = (name: string) => WEEKDAYS.findIndex((d) => d.toLowerCase() === name.trim().toLowerCase());

/** "Monday to Friday", "Saturday" or "Monday, Wednesday and Friday" as weekdays (0 is Sunday); `undefined` when it is none of these. */
export function readDays(text: string): number[] | undefined {
  const range = /^\s*(\w+)\s+to\s+(\w+)\s*$/i.exec(text);
  if (range) {
    const [from, to] = [dayIndex(range[1]!), dayIndex(range[2]!)];
    if (from < 0 || to < 0) return undefined;
    const days = [];
    for (let d = from; ; d = (d + 1) % 7) {
      days.push(d);
      if (d === to) return days;
    }
  }
  const listed = text
    .split(/\s*(?:,|\band\b)\s*/i)
    .filter(Boolean)
    .map(dayIndex);
  return listed.length > 0 && listed.every((d) => d >= 0) ? listed : undefined;
}

/** "8 am", "12:30 pm" or "noon" as minutes after midnight; `undefined` when it is none of these. */
export function readTime(text: string): number | undefined {
  if (/^\s*noon\s*$/i.test(text)) return 12 * 60;
  const t = /^\s*(\d{1,2})(?::([0-5]\d))?\s*(am|pm)\s*$/i.exec(text);
  if (!t || Number(t[1]) < 1 || Number(t[1]) > 12) return undefined;
  const hour = (Number(t[1]) % 12) + (t[3]!.toLowerCase() === 'pm' ? 12 : 0);
  return hour * 60 + Number(t[2] ?? 0);
}

/** One line of hours as the content holds it, read; `undefined` when a part cannot be read. */
export function readHours(line: { days: string; opens: string; closes: string }): OpeningHours | undefined {
  const days = readDays(line.days);
  const [opens, closes] = [readTime(line.opens), readTime(line.closes)];
  if (!days || opens === undefined || closes === undefined || closes <= opens) return undefined;
  return { days, opens, closes, words: line };
}

/** The line the site shows: "Monday to Friday, 8 am to 6 pm". */
export const hoursLine = (h: { days: string; opens: string; closes: string }) => `${h.days}, ${h.opens} to ${h.closes}`;
