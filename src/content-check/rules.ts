/**
 * The rules of the editors' content, with messages for the editors. Each message is one sentence
 * in three parts: what the field must be, an example, and what was found ("must be a description
 * of 20 to 200 characters; for example: …; found 10 characters ("Too short.")"). `readMessage`
 * takes a message apart again, for the list of mistakes (`./report.ts`).
 */
import { z } from 'astro/zod';
import { visible } from '../office/inert-text.ts';
import { writtenAs } from './locate.ts';

/** A date as the editor wrote it (`2026-02-30`, which YAML read as March 2), else as the day it is. */
const dateWritten = (date: Date) => writtenAs(date) ?? date.toISOString().slice(0, 10);

/** What a value is, in words: "12 characters", "nothing", "a list of 3", "the number 3". */
export function found(input: unknown): string {
  if (input === undefined || input === null) return 'nothing';
  // A character that hides or turns the text around is shown by its code point ("[U+202E]").
  if (typeof input === 'string')
    return input.trim() === '' ? 'an empty text' : `${input.length} characters ("${visible(input.length > 40 ? `${input.slice(0, 40)}…` : input)}")`;
  if (typeof input === 'number') return `the number ${input}`;
  if (typeof input === 'boolean') return `the word ${input ? 'true' : 'false'}`;
  if (Array.isArray(input)) return `a list of ${input.length}`;
  if (input instanceof Date) return `the date ${dateWritten(input)}`;
  if (typeof input === 'object') {
    const written = `{ ${Object.entries(input)
      .map(([k, v]) => `${k}: ${v instanceof Date ? dateWritten(v) : typeof v === 'object' && v !== null ? '…' : visible(String(v))}`)
      .join(', ')} }`;
    return written.length > 80 ? `${written.slice(0, 80)}…` : written;
  }
  return String(input);
}

/** Words written where a number belongs, as the editor wrote them: 'the word "three"'. */
const wordsFound = (input: string) => `the ${/\s/.test(input.trim()) ? 'words' : 'word'} "${input.length > 40 ? `${input.slice(0, 40)}…` : input.trim()}"`;

const EXAMPLE = '; for example: ';
const FOUND = '; found ';
/** Marks a message that says nothing of what was found. */
const NOT_SAID = Symbol('not said');

/** A message: what is allowed (a sentence starting "must …" or "has …"), an example, and what was found. */
export const message = (allowed: string, example: string, input?: unknown): string =>
  `${allowed}${example ? `${EXAMPLE}${example}` : ''}${input === NOT_SAID ? '' : `${FOUND}${found(input)}`}`;

/** A message taken apart: `allowed` ("must be …"), its `example` and what was `found`. */
export function readMessage(text: string): { allowed: string; example?: string; found?: string } {
  const foundAt = text.indexOf(FOUND);
  const head = foundAt < 0 ? text : text.slice(0, foundAt);
  const exampleAt = head.indexOf(EXAMPLE);
  return {
    allowed: exampleAt < 0 ? head : head.slice(0, exampleAt),
    ...(exampleAt < 0 ? {} : { example: head.slice(exampleAt + EXAMPLE.length) }),
    ...(foundAt < 0 ? {} : { found: text.slice(foundAt + FOUND.length) }),
  };
}

/** An error message: the rule (`expected`, what the value must be), an example, and what was found in its place. */
export const rule =
  (expected: string, example: string) =>
  (issue: { input?: unknown }): string =>
    message(`must be ${expected}`, example, issue.input);

/**
 * The rule of a number, `expected` ("a whole number from 1 to 10"): a word where the number belongs
 * ("three", "one day") is said as a word, since "5 characters" would puzzle the person who wrote it.
 */
export const numberRule =
  (expected: string, example: string) =>
  (issue: { input?: unknown }): string =>
    typeof issue.input === 'string' && issue.input.trim() !== '' && Number.isNaN(Number(issue.input))
      ? `${message(`must be ${expected}, written in digits`, example, NOT_SAID)}${FOUND}${wordsFound(issue.input)}`
      : rule(expected, example)(issue);

/** A rule of a refinement (`.refine(test, must('…', '…'))`): what the value must do, and an example. */
export const must = (requirement: string, example: string) => ({
  error: (issue: { input?: unknown }) => message(`must ${requirement}`, example, issue.input),
});

/**
 * The error of a group of fields: a part it does not know is named, with the parts it has
 * (`stars: 5` in a review); anything else is not the group `expected` describes.
 */
export const group =
  (expected: string, known: string, example: string) =>
  (issue: { code?: string; keys?: string[]; input?: unknown }): string =>
    issue.code === 'unrecognized_keys'
      ? message(`has no part named ${(issue.keys ?? []).map((k) => `"${k}"`).join(', ')}: the parts are ${known}`, '', NOT_SAID)
      : rule(expected, example)(issue);

/** Text of `min` to `max` characters, named `what` ("a description"). */
export function text(what: string, min: number, max: number, example: string) {
  const error = rule(`${what} of ${min} to ${max} characters`, example);
  return z.string({ error }).trim().min(min, { error }).max(max, { error });
}

/** A list of `min` to `max` entries of `item`, named `what` ("cities"). */
export function list<T extends z.ZodType>(what: string, item: T, min: number, max: number, example: string) {
  const error = rule(`a list of ${min} to ${max} ${what}, one per line starting with "- "`, example);
  return z.array(item, { error }).min(min, { error }).max(max, { error });
}

/**
 * A date written YYYY-MM-DD (YAML reads it as a date). Anything else, such as 22/11/2026, is
 * refused with that rule, not coerced.
 */
export const date = z.date({ error: rule('a date written YYYY-MM-DD', '2026-11-22') });
