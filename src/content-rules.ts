/**
 * The rules of the editors' content, with messages for the editors: each says what the field must
 * be and what was found ("must be a description of 20 to 200 characters; found 12 characters"),
 * so that Astro's report, which names the file and the field, reads as one plain sentence.
 */
import { z } from 'astro/zod';

/** What a value is, in words: "12 characters", "nothing", "a list", "the number 3". */
function found(input: unknown): string {
  if (input === undefined || input === null) return 'nothing';
  if (typeof input === 'string')
    return input.trim() === '' ? 'an empty text' : `${input.length} characters ("${input.length > 40 ? `${input.slice(0, 40)}…` : input}")`;
  if (typeof input === 'number') return `the number ${input}`;
  if (Array.isArray(input)) return `a list of ${input.length}`;
  if (input instanceof Date) return `the date ${input.toISOString().slice(0, 10)}`;
  return typeof input === 'object' ? 'a group of fields' : String(input);
}

/** An error message: the rule, and what was found in its place. */
export const rule =
  (expected: string) =>
  (issue: { input?: unknown }): string =>
    `must be ${expected}; found ${found(issue.input)}`;

/**
 * The error of a group of fields: a part it does not know is named, with the parts it has
 * (`rating: 5` in a review); anything else is not the group `expected` describes.
 */
export const group =
  (expected: string, known: string) =>
  (issue: { code?: string; keys?: string[]; input?: unknown }): string =>
    issue.code === 'unrecognized_keys'
      ? `has no part named ${(issue.keys ?? []).map((k) => `"${k}"`).join(', ')}: the parts are ${known}`
      : rule(expected)(issue);

/** Text of `min` to `max` characters, named `what` ("a description"). */
export function text(what: string, min: number, max: number) {
  const error = rule(`${what} of ${min} to ${max} characters`);
  return z.string({ error }).trim().min(min, { error }).max(max, { error });
}

/** A list of `min` to `max` entries of `item`, named `what` ("cities"). */
export function list<T extends z.ZodType>(what: string, item: T, min: number, max: number) {
  const error = rule(`a list of ${min} to ${max} ${what}, one per line starting with "- "`);
  return z.array(item, { error }).min(min, { error }).max(max, { error });
}

/**
 * A date written YYYY-MM-DD (YAML reads it as a date). Anything else, such as 22/11/2026, is
 * refused with that rule, not coerced.
 */
export const date = z.date({ error: rule('a date written YYYY-MM-DD, such as 2026-11-22') });
