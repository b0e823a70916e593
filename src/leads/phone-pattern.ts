/**
 * The phone's published pattern, derived from libphonenumber's own data: the numbers `PHONE_SYNTAX`
 * writes whose area code, exchange and line libphonenumber takes as a NANP number in service, so
 * that a JSON Schema validator refuses exactly what the server refuses (`toE164UsPhone`, which
 * stays libphonenumber's). Built once when asked (about a second), by the OpenAPI build and the
 * tests: an area code's exchanges are read from ten sample lines, and only where those disagree
 * are the lines themselves listed.
 */
import { createRequire } from 'node:module';

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

let built: string | undefined;

/** The published pattern of `phone` (ECMA-262, white space around it allowed as the server trims it). */
export function phonePattern(): string {
  if (built) return built;
  // libphonenumber-js's full metadata: each NANP region's number types, as national-number patterns.
  const metadata = createRequire(import.meta.url)('libphonenumber-js/metadata.max.json') as {
    country_calling_codes: Record<string, string[]>;
    countries: Record<string, unknown[]>;
  };
  const types = metadata.country_calling_codes['1']!.flatMap((region) =>
    ((metadata.countries[region]![11] ?? []) as Array<string[] | undefined>).flatMap((t) => (t?.[0] ? [t[0]] : [])),
  );
  const inService = new RegExp(`^(?:${types.join('|')})$`);
  const lines = Array.from({ length: 10_000 }, (_, i) => String(i).padStart(4, '0'));
  // Area codes grouped by the language of their exchanges and lines.
  const byLanguage = new Map<string, string[]>();
  for (let area = 200; area <= 999; area++) {
    const everyLine: string[] = [];
    const someLines: string[] = [];
    for (let exchange = 200; exchange <= 999; exchange++) {
      const sampled = SAMPLE_LINES.map((line) => inService.test(`${area}${exchange}${line}`));
      if (sampled.every(Boolean)) everyLine.push(String(exchange));
      else if (sampled.some(Boolean)) someLines.push(`${exchange}${SEP}${trie(lines.filter((line) => inService.test(`${area}${exchange}${line}`)))}`);
    }
    if (everyLine.length === 0 && someLines.length === 0) continue;
    const language = [everyLine.length > 0 ? `${trie(everyLine)}${SEP}[0-9]{4}` : '', ...someLines].filter(Boolean).join('|');
    byLanguage.set(language, [...(byLanguage.get(language) ?? []), String(area)]);
  }
  const alternatives = [...byLanguage].map(([language, areas]) => `(?:\\(${trie(areas)}\\)|${trie(areas)})${SEP}(?:${language})`);
  built = `^\\s*(?:\\+?1${SEP})?(?:${alternatives.join('|')})\\s*$`;
  return built;
}
