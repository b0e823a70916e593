/** U.S. (NANP) phone numbers, parsed by libphonenumber-js rather than a home-made pattern. */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/**
 * How a 10-digit NANP number is written: an optional `+1` or `1`, the area code (in parentheses or
 * not) and the exchange, each starting with 2 to 9, and the line; spaces, dots and hyphens between.
 * Published as the phone's pattern; libphonenumber alone would also read letters ("1-800-FLOWERS")
 * and numbers buried in prose.
 */
// `\-` is kept: the pattern is published (OpenAPI), and reads the same in every regex dialect.
// eslint-disable-next-line no-useless-escape
export const PHONE_SYNTAX = /^(?:\+?1[ .\-]*)?(?:\([2-9][0-9]{2}\)|[2-9][0-9]{2})[ .\-]*[2-9][0-9]{2}[ .\-]*[0-9]{4}$/;

/**
 * The regions of the +1 plan (NANP) whose numbers are U.S. numbers: the United States and its
 * territories (Puerto Rico, the U.S. Virgin Islands, Guam, the Northern Mariana Islands, American
 * Samoa), as libphonenumber names a number's region. The plan's other countries (Canada, the
 * Caribbean ones) are not the United States.
 */
export const US_REGIONS: readonly CountryCode[] = ['US', 'PR', 'VI', 'GU', 'MP', 'AS'];

/** A number written as `PHONE_SYNTAX` says, as libphonenumber reads it; nothing for one that is not. */
export interface NanpPhone {
  /** Its E.164 form (`+15035550142`), when it is a number in service. */
  e164?: string;
  /**
   * Its region (`US`, `CA`, …); for a number not in service, the other country of the plan whose
   * area code it has (`BM` for Bermuda's 441), if it has one.
   */
  region?: CountryCode;
  /** Its area code (`503`). */
  areaCode?: string;
}

/** Reads a 10-digit NANP number written as `PHONE_SYNTAX` says: its E.164 form when it is in service, and its region. */
export function readNanpPhone(input: string): NanpPhone {
  if (!PHONE_SYNTAX.test(input)) return {};
  const parsed = parsePhoneNumberFromString(input, 'US');
  if (!parsed || parsed.countryCallingCode !== '1' || parsed.ext || parsed.nationalNumber.length !== 10) return {};
  const areaCode = parsed.nationalNumber.slice(0, 3);
  if (parsed.isValid() && parsed.country) return { e164: parsed.number, region: parsed.country, areaCode };
  // A number in service nowhere still has a country when its area code is another country's (its "leading digits").
  return parsed.country && !isUsRegion(parsed.country) ? { region: parsed.country, areaCode } : { areaCode };
}

/**
 * The E.164 form (`+15035550142`) of a 10-digit number of the +1 plan written as `PHONE_SYNTAX`
 * says, in service (libphonenumber's metadata), or `undefined` when it is not one. It reads the
 * plan's other countries too (a Canadian number), so that a number stored before the forms took
 * U.S. numbers only still matches (the office's link that calls it, erasure by phone); whether a
 * number is a U.S. one is `readNanpPhone`'s region.
 */
export function toE164UsPhone(input: string): string | undefined {
  return readNanpPhone(input).e164;
}

/** Whether a region of the +1 plan is the United States or one of its territories. */
export function isUsRegion(region: CountryCode): boolean {
  return US_REGIONS.includes(region);
}

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

/** A region as a sentence names it: "Canada", "the Bahamas", "the U.S. Virgin Islands". */
export function regionName(region: CountryCode): string {
  const name = REGION_NAMES.of(region) ?? region;
  return /^(?:United |Bahamas$)|(?:Islands|Republic)$/.test(name) ? `the ${name}` : name;
}

const territories = US_REGIONS.filter((r) => r !== 'US').map(regionName);
/**
 * Which numbers the company takes, as every document states it once (`{{phoneRule}}` in
 * `spec/openapi.yaml`, `<Fact name="phoneRule" />` on a page, `/llms.txt`), the territories named
 * from `US_REGIONS`.
 */
export const US_PHONE_RULE =
  `The company calls and texts U.S. numbers only, those of ${territories.slice(0, -1).join(', ')} and ${territories.at(-1)} included; ` +
  'a number of any other country is refused, even one that shares the +1 code, such as a Canadian, Bermudian or Caribbean number.';

/** A stored E.164 number as the office dials it: `(503) 555-0142`; the input itself when it is not one. */
export function formatUsPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatNational() ?? e164;
}
