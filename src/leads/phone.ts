/** U.S. (NANP) phone numbers, parsed by libphonenumber-js rather than a home-made pattern. */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

// Digits, spaces and the punctuation people type in phone numbers; libphonenumber alone would also
// read letters ("1-800-FLOWERS") and numbers buried in prose.
const PHONE_CHARACTERS = /^\+?[0-9 ().\-]+$/;

/** The E.164 form (`+15035550142`) of a 10-digit NANP number, or `undefined` when it is not one. */
export function toE164UsPhone(input: string): string | undefined {
  if (!PHONE_CHARACTERS.test(input)) return undefined;
  const parsed = parsePhoneNumberFromString(input, 'US');
  if (!parsed || parsed.countryCallingCode !== '1' || parsed.ext || parsed.nationalNumber.length !== 10) return undefined;
  return parsed.isValid() ? parsed.number : undefined;
}

/** A stored E.164 number as the office dials it: `(503) 555-0142`; the input itself when it is not one. */
export function formatUsPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatNational() ?? e164;
}
