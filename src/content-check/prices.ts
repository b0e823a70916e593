/**
 * The rules of the price guide (`prices` in `content/forms/quote.mdx`): each cleaning of the form's
 * list, by its name there, with a range of whole dollars for each size of home it is priced for.
 */
import { z } from 'astro/zod';
import { HOME_SIZES, type HomeSize } from '../prices.ts';
import { group, message, must, rule } from './rules.ts';

/** A range of prices as editors write it: "90 to 120", "$90 to $120" (whole dollars, the first not above the second). */
const PRICE_RANGE = /^\$?\s*([0-9][0-9,]*)\s*to\s*\$?\s*([0-9][0-9,]*)$/i;
const priceRange = z.union([z.string(), z.number()]).transform((input, ctx) => {
  const [from, to] = (PRICE_RANGE.exec(String(input).trim()) ?? []).slice(1).map((n) => Number(n.replaceAll(',', '')));
  if (from !== undefined && to !== undefined && from >= 1 && from <= to && to <= 100_000) return { from, to };
  ctx.addIssue({ code: 'custom', input, message: rule('a range of whole dollars, the smaller first', '130 to 180')({ input }) });
  return z.NEVER;
});

/** A cleaning's prices by the size of the home: `studio`, `1` to `4` and `5+` (5 bedrooms or more), each optional. */
const sizePrices = z
  .strictObject(Object.fromEntries(HOME_SIZES.map((size) => [size, priceRange.optional()])) as Record<HomeSize, z.ZodOptional<typeof priceRange>>, {
    error: group('the prices of a cleaning by the size of the home', 'studio, 1, 2, 3, 4 and 5+', '{ studio: 90 to 120, 1: 110 to 150 }'),
  })
  .refine((sizes) => Object.values(sizes).some(Boolean), must('give the prices of one size of home at least', '{ studio: 90 to 120 }'));

/** Each cleaning's starting prices, under its name on the form's list; left out (or empty), no prices are shown. */
export const prices = z.preprocess((v) => v ?? undefined, z.record(z.string(), sizePrices).optional());

/** A name under `prices` that the list of `services` does not have: the issue to report, in words. */
export function unlistedServices(services: readonly string[], priced: Record<string, unknown> | undefined) {
  return Object.keys(priced ?? {})
    .filter((name) => !services.includes(name))
    .map((name) => ({
      path: ['prices', name],
      // No example: the rule names every cleaning there is.
      message: message(`must be a cleaning of the list under services, written as it is there (${services.join('; ')})`, '', name),
    }));
}
