/**
 * The phone's published pattern, derived from libphonenumber's own data: the numbers `PHONE_SYNTAX`
 * writes that libphonenumber takes as numbers in service of a U.S. region of the +1 plan
 * (`US_REGIONS`), so that a JSON Schema validator refuses exactly what the server refuses
 * (`readNanpPhone`, which stays libphonenumber's): a number of the plan's other countries (Canada,
 * the Caribbean) included. Built once when asked (a second or two), by the OpenAPI build and the
 * tests: an area code's exchanges are read from ten sample lines, and only where those disagree are
 * the lines themselves listed.
 */
import { createRequire } from 'node:module';
import type { CountryCode } from 'libphonenumber-js/max';
import { isUsRegion } from './phone.ts';

/** The digits of a set of numbers as one regex alternation, sharing their prefixes (a trie). */
function trie(words: string[]): string {
  if (words.length === 0 || words[0] === '') return '';
  const byFirst = new Map<string, string[]>();
  for (const w of words) byFirst.set(w[0]!, [...(byFirst.get(w[0]!) ?? []), w.slice(1)]);
  const bySuffix = new Map<string, string[]>();
  for (const [digit, rest] of byFirst) {
    const suffix = trie(rest);
    bySuffix.set(suffix, [...(bySuffix.get(suffix) ?? []), digit]);
  }
  const digitClass = (digits: string[]) => {
    const d = digits.map(Number).sort((a, b) => a - b);
    const parts: string[] = [];
    for (let i = 0; i < d.length;) {
      let j = i;
      while (j + 1 < d.length && d[j + 1] === d[j]! + 1) j++;
      parts.push(j - i >= 2 ? `${d[i]}-${d[j]}` : d.slice(i, j + 1).join(''));
      i = j + 1;
    }
    const body = parts.join('');
    return body === '0-9' ? '[0-9]' : d.length === 1 ? body : `[${body}]`;
  };
  const alternatives = [...bySuffix].map(([suffix, digits]) => digitClass(digits) + suffix);
  return alternatives.length === 1 ? alternatives[0]! : `(?:${alternatives.join('|')})`;
}

/** Separators `PHONE_SYNTAX` allows between the groups. */
const SEP = '[ .\\-]*';
const SAMPLE_LINES = ['0000', '0142', '1234', '2500', '4999', '5555', '6001', '7777', '8642', '9999'];

/** A type of number (fixed line, mobile, toll free, …) of a region: its pattern (`''` for none) and its own lengths, if any. */
type NumberType = [pattern: string, possibleLengths?: number[]] | 0 | undefined;
/**
 * A region in libphonenumber-js's full metadata, compressed: the members read here, at the places
 * its `Metadata` class reads them (the national-number pattern, the lengths, the leading digits
 * that alone decide a number is the region's, the types).
 */
interface RegionData {
  2: string;
  3: number[];
  10?: string | 0;
  11?: NumberType[];
}

/**
 * Whether a 10-digit national number is one libphonenumber takes as a U.S. number in service, as it
 * decides (`getCountryByNationalNumber`, then `isValid`): the region of a number is the first of the
 * plan's regions, in the metadata's order (the United States first), whose leading digits begin it
 * or, for a region without leading digits (the United States, Canada), one of whose number types
 * it is; the number is in service when it is one of that region's types.
 */
function usNumberTest(): (nationalNumber: string) => boolean {
  const metadata = createRequire(import.meta.url)('libphonenumber-js/metadata.max.json') as {
    country_calling_codes: Record<string, CountryCode[]>;
    countries: Record<string, RegionData>;
  };
  const regions = metadata.country_calling_codes['1']!.map((code) => {
    const { 2: nationalNumber, 3: possibleLengths, 10: leadingDigits, 11: types = [] } = metadata.countries[code]!;
    // The patterns of the types that take 10 digits (a type's own lengths, or else the region's); an empty pattern is none.
    const patterns = types.flatMap((t) => (t && t[0] && (t[1] ?? possibleLengths).includes(10) ? [t[0]] : []));
    const typed = new RegExp(`^(?=(?:${nationalNumber})$)(?:${patterns.join('|')})$`);
    return { code, typed, leads: leadingDigits ? new RegExp(`^(?:${leadingDigits})`) : undefined };
  });
  return (n) => {
    const region = regions.find((r) => (r.leads ? r.leads.test(n) : r.typed.test(n)));
    return region !== undefined && isUsRegion(region.code) && region.typed.test(n);
  };
}

let built: string | undefined;

/** The published pattern of `phone` (ECMA-262, white space around it allowed as the server trims it). */
export function phonePattern(): string {
  if (built) return built;
  const inService = usNumberTest();
  const lines = Array.from({ length: 10_000 }, (_, i) => String(i).padStart(4, '0'));
  // Area codes grouped by the language of their exchanges and lines.
  const byLanguage = new Map<string, string[]>();
  for (let area = 200; area <= 999; area++) {
    const everyLine: string[] = [];
    const someLines: string[] = [];
    for (let exchange = 200; exchange <= 999; exchange++) {
      const sampled = SAMPLE_LINES.map((line) => inService(`${area}${exchange}${line}`));
      if (sampled.every(Boolean)) everyLine.push(String(exchange));
      else if (sampled.some(Boolean)) someLines.push(`${exchange}${SEP}${trie(lines.filter((line) => inService(`${area}${exchange}${line}`)))}`);
    }
    if (everyLine.length === 0 && someLines.length === 0) continue;
    const language = [everyLine.length > 0 ? `${trie(everyLine)}${SEP}[0-9]{4}` : '', ...someLines].filter(Boolean).join('|');
    byLanguage.set(language, [...(byLanguage.get(language) ?? []), String(area)]);
  }
  const alternatives = [...byLanguage].map(([language, areas]) => `(?:\\(${trie(areas)}\\)|${trie(areas)})${SEP}(?:${language})`);
  built = `^\\s*(?:\\+?1${SEP})?(?:${alternatives.join('|')})\\s*$`;
  return built;
}
