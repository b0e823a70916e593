/** U.S. (NANP) phone numbers, parsed by libphonenumber-js rather than a home-made pattern. */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

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
 * The E.164 form (`+15035550142`) of a 10-digit NANP number written as `PHONE_SYNTAX` says whose
 * area code is in service (libphonenumber's metadata), or `undefined` when it is not one.
 */
export function toE164UsPhone(input: string): string | undefined {
  if (!PHONE_SYNTAX.test(input)) return undefined;
  const parsed = parsePhoneNumberFromString(input, 'US');
  if (!parsed || parsed.countryCallingCode !== '1' || parsed.ext || parsed.nationalNumber.length !== 10) return undefined;
  return parsed.isValid() ? parsed.number : undefined;
}

/** A stored E.164 number as the office dials it: `(503) 555-0142`; the input itself when it is not one. */
export function formatUsPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatNational() ?? e164;
}
