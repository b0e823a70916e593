/**
 * The rules of the editors' content, with messages for the editors: each says what the field must
 * be and what was found ("must be a description of 20 to 200 characters; found 12 characters"),
 * so that Astro's report, which names the file and the field, reads as one plain sentence.
 */
import { z } from 'astro/zod';
import { HOME_SIZES, type HomeSize } from './prices.ts';

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

/** A range of prices as editors write it: "90 to 120", "$90 to $120" (whole dollars, the first not above the second). */
const PRICE_RANGE = /^\$?\s*([0-9][0-9,]*)\s*to\s*\$?\s*([0-9][0-9,]*)$/i;
const priceRange = z.union([z.string(), z.number()]).transform((input, ctx) => {
  const [from, to] = (PRICE_RANGE.exec(String(input).trim()) ?? []).slice(1).map((n) => Number(n.replaceAll(',', '')));
  if (from !== undefined && to !== undefined && from >= 1 && from <= to && to <= 100_000) return { from, to };
  ctx.addIssue({ code: 'custom', input, message: rule('a range of whole dollars, the smaller first, such as 130 to 180')({ input }) });
  return z.NEVER;
});

/** A cleaning's prices by the size of the home: `studio`, `1` to `4` and `5+` (5 bedrooms or more), each optional. */
export const sizePrices = z
  .strictObject(Object.fromEntries(HOME_SIZES.map((size) => [size, priceRange.optional()])) as Record<HomeSize, z.ZodOptional<typeof priceRange>>, {
    error: group('the prices of a cleaning by the size of the home, such as { studio: 90 to 120, 1: 110 to 150 }', 'studio, 1, 2, 3, 4 and 5+'),
  })
  .refine((sizes) => Object.values(sizes).some(Boolean), 'must give the prices of one size of home at least, such as { studio: 90 to 120 }');

/** Each cleaning's starting prices, under its name on the form's list; left out (or empty), no prices are shown. */
export const prices = z.preprocess((v) => v ?? undefined, z.record(z.string(), sizePrices).optional());

/** A name under `prices` that the list of `services` does not have: the issue to report, in words. */
export function unlistedServices(services: readonly string[], prices: Record<string, unknown> | undefined) {
  return Object.keys(prices ?? {})
    .filter((name) => !services.includes(name))
    .map((name) => ({
      path: ['prices', name],
      message: `must be a cleaning of the list under services, written as it is there (${services.join('; ')}); found "${name}"`,
    }));
}
