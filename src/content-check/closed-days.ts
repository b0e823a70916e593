/**
 * The rules of the office's closed days (`closedDays` in `content/company.yaml`), in the editors'
 * words: each a day of the calendar written exactly YYYY-MM-DD (YAML reads `2026-02-30` as March 2
 * and `2026-13-01` as the next January: the text written must come back from the date), with no
 * time of day, listed once, and named, if at all, in plain text.
 */
import { z } from 'astro/zod';
import { writtenAs } from './locate.ts';
import { group, list, message, must, rule, text } from './rules.ts';

const CLOSED_DAY = '{ date: 2026-11-26, name: Thanksgiving Day }';
const DAY = /^\d{4}-\d\d-\d\d$/;
/** A date followed by a time of day, as YAML or an editor writes one. */
const WITH_TIME = /^\d{4}-\d\d?-\d\d?[Tt ]+\d/;

/**
 * What is wrong with a date YAML read, or `undefined`. Read by Astro, a date's text is not known:
 * then only a time of day is seen (the check before it, which reads the text, has said the rest).
 */
function dayMistake(date: Date): string | undefined {
  const text = writtenAs(date);
  const day = date.toISOString().slice(0, 10);
  if (text === undefined ? date.toISOString() !== `${day}T00:00:00.000Z` : WITH_TIME.test(text)) return 'be a day alone, without a time of day';
  if (text === undefined || text === day) return undefined;
  return DAY.test(text)
    ? 'be a day the calendar has: a month from 01 to 12, and a day that month has'
    : 'be written YYYY-MM-DD, with two digits for the month and two for the day';
}

const EXAMPLE = '2026-11-26';

/** A closed day's date; text that YAML did not read as a date is told what it lacks (a time of day to remove, quotes). */
const date = z
  .date({
    error: (issue) => {
      const written = typeof issue.input === 'string' ? issue.input.trim() : undefined;
      if (written !== undefined && WITH_TIME.test(written)) return message('must be a day alone, without a time of day', EXAMPLE, issue.input);
      if (written !== undefined && DAY.test(written)) return message('must be a date written YYYY-MM-DD, without quotes around it', EXAMPLE, issue.input);
      return rule('a date written YYYY-MM-DD', EXAMPLE)(issue);
    },
  })
  .superRefine((day, ctx) => {
    const mistake = dayMistake(day);
    if (mistake) ctx.addIssue({ code: 'custom', message: message(`must ${mistake}`, EXAMPLE, day) });
  });

/** Control, formatting (direction marks, zero-width characters) and line-separating characters: none belongs in a name. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const name = text('the name of the day', 2, 60, 'Thanksgiving Day').refine(
  (s) => !HIDDEN.test(s),
  must('be plain text, without control characters, direction marks or invisible characters', 'Thanksgiving Day'),
);

/**
 * Each day once: one listed again is said where it is listed again, with the one it repeats. Run
 * beside the days' own mistakes, so that every mistake is listed at once; an entry that is not a
 * day written right is left to its own mistake.
 */
function listedOnce(days: readonly unknown[], ctx: z.RefinementCtx): void {
  const first = new Map<string, number>();
  days.forEach((entry, i) => {
    const day = (entry as { date?: unknown } | null)?.date;
    if (!(day instanceof Date) || dayMistake(day) !== undefined) return;
    const key = day.toISOString().slice(0, 10);
    const seen = first.get(key);
    if (seen === undefined) first.set(key, i);
    else ctx.addIssue({ code: 'custom', path: [i, 'date'], message: message(`must be a day not listed already: day ${seen + 1} is the same day`, '', day) });
  });
}

/** The list of closed days, each a date and optionally its name (what they mean: `company` in `./facts.ts`). */
export const closedDays = list(
  'closed days',
  z.strictObject({ date, name: name.optional() }, { error: group('a closed day with its date, and its name if you like', 'date and name', CLOSED_DAY) }),
  0,
  60,
  `[${CLOSED_DAY}]`,
).superRefine(listedOnce, { when: (payload) => Array.isArray(payload.value) });
