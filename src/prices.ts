/**
 * The price guide: the starting prices of each cleaning by the size of the home (by bedrooms), as
 * the editors keep them beside the quote form's list of cleanings (`prices` in
 * `content/forms/quote.mdx`). Always an estimate: the office confirms the price. Pure, and imports
 * nothing: the quote page, its script, `GET /api/v1` and the documents agents read share it.
 */

/** The sizes of a home a price is given for: a studio, 1 to 4 bedrooms, 5 bedrooms or more. */
export const HOME_SIZES = ['studio', '1', '2', '3', '4', '5+'] as const;
export type HomeSize = (typeof HOME_SIZES)[number];

/** A range of starting prices, in whole U.S. dollars. */
export interface PriceRange {
  from: number;
  to: number;
}

/** One cleaning's prices: its whole range, and the range for each size of home priced (smallest first). */
export interface ServicePrices extends PriceRange {
  service: string;
  bySize: ReadonlyArray<{ bedrooms: HomeSize } & PriceRange>;
}

/** The guide: the cleanings priced, in the order of the quote form's list. */
export type PriceGuide = readonly ServicePrices[];

/** What every display of the guide says with it: to the customer, and to an agent acting for one. */
export const PRICE_NOTE = 'These are starting prices, an estimate: the office confirms the price once it knows your home.';
export const AGENT_PRICE_NOTE =
  "Starting prices in U.S. dollars by the size of the home, an estimate: give them as such; the office confirms the price once it knows the customer's home.";

/** The guide as `GET /api/v1` publishes it (`priceGuide`). */
export const publishedPrices = (guide: PriceGuide) => ({ currency: 'USD', note: AGENT_PRICE_NOTE, services: guide });

/** A size of home in words: "a studio", "1 bedroom", "5 bedrooms or more". */
export function sizeWords(size: HomeSize): string {
  if (size === 'studio') return 'a studio';
  if (size === '5+') return '5 bedrooms or more';
  return size === '1' ? '1 bedroom' : `${size} bedrooms`;
}

/** A sum of dollars as people read it: "$1,200". */
export const dollars = (n: number) => `$${n.toLocaleString('en-US')}`;

/** A range in words: "from $130 to $180" (or "from $130" when both ends are the same). */
export const rangeWords = (r: PriceRange) => (r.from === r.to ? `from ${dollars(r.from)}` : `from ${dollars(r.from)} to ${dollars(r.to)}`);

/** The lowest starting price of the whole guide, which the home page states: `undefined` for a guide without prices. */
export const startingPrice = (guide: PriceGuide | undefined): number | undefined =>
  guide && guide.length > 0 ? Math.min(...guide.map((service) => service.from)) : undefined;

/**
 * The guide from the editors' prices (by cleaning, then by size), in the order of `services`;
 * undefined when there are none. A cleaning without prices is left out.
 */
export function priceGuide(services: readonly string[], prices: Record<string, Partial<Record<HomeSize, PriceRange>>> | undefined): PriceGuide | undefined {
  if (!prices) return undefined;
  const guide = services.flatMap((service) => {
    const sizes = prices[service] ?? {};
    const bySize = HOME_SIZES.flatMap((bedrooms) => (sizes[bedrooms] ? [{ bedrooms, ...sizes[bedrooms] }] : []));
    if (bySize.length === 0) return [];
    return [{ service, from: Math.min(...bySize.map((s) => s.from)), to: Math.max(...bySize.map((s) => s.to)), bySize }];
  });
  return guide.length > 0 ? guide : undefined;
}

/**
 * The size of home a form's answer names: `bedrooms` as the form sends it ("0" a studio, "1" to
 * "4", "more" or a count of 5 and up for 5 or more); undefined for "not sure" or no answer.
 */
export function sizeOf(bedrooms: string): HomeSize | undefined {
  if (bedrooms === 'more') return '5+';
  if (!/^[0-9]{1,2}$/.test(bedrooms.trim())) return bedrooms.trim().toLowerCase() === 'studio' ? 'studio' : undefined;
  const n = Number(bedrooms);
  return n === 0 ? 'studio' : n >= 5 ? '5+' : (String(n) as HomeSize);
}

/** The range for a cleaning and, when it is known and priced, a size of home. */
export function rangeFor(guide: PriceGuide, service: string, size: HomeSize | undefined): (PriceRange & { size?: HomeSize }) | undefined {
  const prices = guide.find((p) => p.service === service);
  if (!prices) return undefined;
  const sized = prices.bySize.find((s) => s.bedrooms === size);
  return sized ? { from: sized.from, to: sized.to, size: sized.bedrooms } : { from: prices.from, to: prices.to };
}

/** The sentence for what the customer has chosen so far (the cleaning, the bedrooms). */
export function guideSentence(guide: PriceGuide, service: string, bedrooms: string): string {
  if (service === '') return 'Choose the kind of cleaning, and the number of bedrooms, to see a starting price.';
  const range = rangeFor(guide, service, sizeOf(bedrooms));
  if (!range) return 'For this cleaning, the office gives you a price when it gets back to you.';
  if (range.size) return `${service} for ${sizeWords(range.size)}: ${rangeWords(range)}.`;
  return `${service}: ${rangeWords(range)}, by the size of the home.${bedrooms === '' ? ' Choose the bedrooms to see yours.' : ''}`;
}
