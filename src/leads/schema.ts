/**
 * The two lead forms as zod schemas, with the contract's field rules. The OpenAPI schemas in
 * `spec/openapi.yaml` state the same rules; `tests/e2e/openapi-conformance.test.ts` holds the limits
 * together and the generated-body tests hold every answer against the description.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { z } from 'zod';
import { CONTACT_WAYS, FIELDS, FREQUENCIES, NOT_SURE, phoneAbroadDetail, TIMES_OF_DAY } from './fields.ts';
import { isUsRegion, readNanpPhone, regionName } from './phone.ts';
import { phonePattern } from './phone-pattern.ts';

/** Field limits, published as `maxLength` in the OpenAPI description. */
export const MAX_LENGTH = {
  name: 200,
  email: 254,
  phone: 40,
  service: 100,
  helpWith: 200,
  notes: 5000,
  message: 5000,
  pageUrl: 2000,
  consentTimestamp: 40,
  postalCode: 20,
  // As sent, white space included: the patterns say the rest.
  bedrooms: 40,
  bathrooms: 40,
} as const;

/** How far in the future a `consentTimestamp` may lie, allowing for clock skew. */
export const CONSENT_CLOCK_SKEW_MS = 5 * 60 * 1000;

const format = (message: string) => ({ message, params: { code: 'invalid_format' } });

// C0/C1 control characters (tab, line feed and carriage return are allowed only where a field may
// span lines) and the bidirectional overrides and isolates that can make text read differently
// from what it holds (Trojan Source): none belongs in a lead the office will read. (The contents of
// a character class, written once for the checks and for the published patterns.)
const NOT_IN_ONE_LINE = '\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069';
const NOT_IN_TEXT = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069';
const UNSAFE_ONE_LINE = new RegExp(`[${NOT_IN_ONE_LINE}]`);
const UNSAFE_MULTI_LINE = new RegExp(`[${NOT_IN_TEXT}]`);
const safe = (pattern: RegExp) => (s: string) => !pattern.test(s);
const noControls = format('must not contain control characters or bidirectional overrides');

/** A required one-line string: at most `max` characters as sent, then trimmed and non-empty. */
const text = (max: number) => z.string().max(max).trim().min(1).refine(safe(UNSAFE_ONE_LINE), noControls);
/** Whether text that may span lines holds none of the characters refused above: the intake's rule, which the office's notes keep too. */
export const safeMultiLineText = safe(UNSAFE_MULTI_LINE);
/** Free text that may span lines (notes, message): at most `max` characters as sent, then trimmed. */
const longText = (max: number) => z.string().max(max).trim().refine(safeMultiLineText, noControls);

/**
 * The country calling code of a number written in international form (`+44 20 7946 0958`) for a
 * country other than the U.S. (NANP), if it is one: such a number is refused like any other, with
 * words that say what the customer can do instead.
 */
export function foreignCallingCode(sent: string): string | undefined {
  if (!sent.startsWith('+') || /^\+\s*1/.test(sent)) return undefined;
  const code = parsePhoneNumberFromString(sent)?.countryCallingCode;
  return code && code !== '1' ? code : undefined;
}

/**
 * A 10-digit U.S. number: one of the +1 plan whose region is the United States or one of its
 * territories (`US_REGIONS`). A number of another country, of the plan (Canada, the Caribbean) or
 * not, is refused like any other, with words that say where it is from and what to do instead.
 */
const Phone = text(MAX_LENGTH.phone).transform((sent, ctx) => {
  const { e164, region, areaCode = '' } = readNanpPhone(sent);
  if (e164 && region && isUsRegion(region)) return { sent, e164 };
  const callingCode = foreignCallingCode(sent);
  const message =
    region && !isUsRegion(region)
      ? phoneAbroadDetail({ place: regionName(region), areaCode })
      : callingCode
        ? phoneAbroadDetail({ callingCode })
        : `phone must be ${FIELDS.phone.expects}`;
  ctx.addIssue({ code: 'custom', ...format(message) });
  return z.NEVER;
});

const Email = text(MAX_LENGTH.email).pipe(z.email(format(`email must be ${FIELDS.email.expects}`)));

/** Whole numbers from 0 (a studio) to 20, or `NOT_SURE`. */
export const BEDROOMS_PATTERN = new RegExp(`^(?:[0-9]|1[0-9]|20|${NOT_SURE})$`);
/** 0.5 to 20 in halves, with an optional leading zero and an optional `.0`, or `NOT_SURE`. */
export const BATHROOMS_PATTERN = new RegExp(`^(?:0?0\\.5|0?[1-9](?:\\.[05])?|1[0-9](?:\\.[05])?|20(?:\\.0)?|${NOT_SURE})$`);

// The pattern bounds the trimmed value; the maximum, of the value as sent, only stops absurd
// padding (a value of a few characters too many gets the pattern's message, which says more).
const Bedrooms = z
  .string()
  .max(MAX_LENGTH.bedrooms)
  .trim()
  .min(1)
  .regex(BEDROOMS_PATTERN, format(`bedrooms must be ${FIELDS.bedrooms.expects}`));
const Bathrooms = z
  .string()
  .max(MAX_LENGTH.bathrooms)
  .trim()
  .min(1)
  .regex(BATHROOMS_PATTERN, format(`bathrooms must be ${FIELDS.bathrooms.expects}`));

// Any RFC 3339 offset is taken, and the moment kept in UTC.
const ConsentTimestamp = z
  .string()
  .max(MAX_LENGTH.consentTimestamp)
  .pipe(z.iso.datetime({ offset: true, ...format(`consentTimestamp must be ${FIELDS.consentTimestamp.expects}`) }))
  .refine(
    (s) => Date.parse(s) <= Date.now() + CONSENT_CLOCK_SKEW_MS,
    format(`consentTimestamp must not be more than ${CONSENT_CLOCK_SKEW_MS / 60_000} minutes in the future`),
  )
  .transform((s) => (s.endsWith('Z') ? s : new Date(s).toISOString()));

/**
 * An absolute http(s) address, written as the published pattern says (a host of letters, digits,
 * `_` and hyphens inside its labels (`xn--` ones too) ending in a name, or an IPv4 address; a port from 0 to 65535), which is
 * what `new URL()` then parses: the schema and the server take exactly the same addresses.
 */
const PAGE_URL_HOST = '(?:[A-Za-z0-9_]+(?:-+[A-Za-z0-9_]+)*\\.)*[A-Za-z][A-Za-z0-9_]*(?:-+[A-Za-z0-9_]+)*\\.?';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const PORT = '(?:[0-9]{0,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';
export const PAGE_URL_PATTERN = new RegExp(
  `^[Hh][Tt][Tt][Pp][Ss]?://(?:${PAGE_URL_HOST}|(?:${OCTET}\\.){3}${OCTET})(?::${PORT})?(?:[/?#][^${NOT_IN_ONE_LINE}]*)?$`,
);
const PageUrl = text(MAX_LENGTH.pageUrl)
  .regex(PAGE_URL_PATTERN, format(`pageUrl must be ${FIELDS.pageUrl.expects}`))
  .pipe(z.url({ protocol: /^https?$/, hostname: /^[^\s]+$/, ...format(`pageUrl must be ${FIELDS.pageUrl.expects}`) }));

/** A 5-digit U.S. ZIP code, or ZIP+4. */
export const POSTAL_CODE_PATTERN = /^[0-9]{5}(?:-[0-9]{4})?$/;
const PostalCode = z
  .string()
  .max(MAX_LENGTH.postalCode)
  .trim()
  .min(1)
  .regex(POSTAL_CODE_PATTERN, format(`postalCode must be ${FIELDS.postalCode.expects}`));

/**
 * Calendar dates (`YYYY-MM-DD`, a real day). That there are at most `MAX_PREFERRED_DATES`, all
 * different, from today to 120 days ahead, `validate.ts` checks beside the schema: the window
 * depends on the day in the company's time zone, and zod stops at a list too long before its items.
 */
const PreferredDates = z.array(z.iso.date(format(`preferredDates must be ${FIELDS.preferredDates.expects}`)));

/** A span of days (`{ from, to }`): that `from` is not after `to`, at most 14 days apart, both in the window, `validate.ts` checks beside the schema. */
const PreferredWindow = z.strictObject({
  from: z.iso.date(format(`preferredWindow must be ${FIELDS.preferredWindow.expects}`)),
  to: z.iso.date(format(`preferredWindow must be ${FIELDS.preferredWindow.expects}`)),
});

/** The way to try first: one of the customer's limits when they give some (checked beside the schema). */
const PreferredContact = z.enum(CONTACT_WAYS, format(`preferredContact must be ${FIELDS.preferredContact.expects}`));
/** The customer's own limits: the only ways the office may reach them (each once, checked beside the schema). */
const AllowedContact = z
  .array(z.enum(CONTACT_WAYS, format(`allowedContact must be ${FIELDS.allowedContact.expects}`)))
  .min(1, format(`allowedContact must be ${FIELDS.allowedContact.expects}`));

/** A quote request: the default form (`formType` absent or `"quote"`). */
export const QuoteRequest = z.strictObject({
  formType: z.literal('quote').optional(),
  name: text(MAX_LENGTH.name),
  phone: Phone,
  email: Email,
  bedrooms: Bedrooms,
  bathrooms: Bathrooms,
  service: text(MAX_LENGTH.service),
  notes: longText(MAX_LENGTH.notes),
  communicationsConsent: z.literal(true),
  consentTimestamp: ConsentTimestamp.optional(),
  pageUrl: PageUrl.optional(),
  // Where and when (optional: a request without them is as valid as before).
  postalCode: PostalCode.optional(),
  preferredDates: PreferredDates.optional(),
  preferredWindow: PreferredWindow.optional(),
  frequency: z.enum(FREQUENCIES, format(`frequency must be ${FIELDS.frequency.expects}`)).optional(),
  preferredContact: PreferredContact.optional(),
  // The customer's own limits and the time of day (optional).
  allowedContact: AllowedContact.optional(),
  timeOfDay: z.enum(TIMES_OF_DAY, format(`timeOfDay must be ${FIELDS.timeOfDay.expects}`)).optional(),
});
export type QuoteRequest = z.infer<typeof QuoteRequest>;

/**
 * A contact (support) message: selected by `formType: "support"`. Agents naturally send the
 * consent evidence with it too: optional here, checked as on a quote request (consent, if sent,
 * must be `true`), and kept as evidence. The customer's limits are taken as on a quote request.
 */
export const ContactMessage = z.strictObject({
  formType: z.literal('support'),
  name: text(MAX_LENGTH.name),
  email: Email,
  phone: Phone,
  helpWith: text(MAX_LENGTH.helpWith),
  message: longText(MAX_LENGTH.message).min(1),
  communicationsConsent: z.literal(true).optional(),
  consentTimestamp: ConsentTimestamp.optional(),
  pageUrl: PageUrl.optional(),
  preferredContact: PreferredContact.optional(),
  allowedContact: AllowedContact.optional(),
  // A visit to move: the days that suit, as on a quote request.
  preferredDates: PreferredDates.optional(),
  preferredWindow: PreferredWindow.optional(),
});
export type ContactMessage = z.infer<typeof ContactMessage>;

/** The form a submission selects with `formType`. */
export type FormType = 'quote' | 'support';

/** A pattern of the trimmed value `re` anchors, for the value as sent: white space around it is trimmed first. */
const aroundTrimmed = (re: RegExp) => {
  if (!re.source.startsWith('^') || !re.source.endsWith('$')) throw new Error(`${re} must be anchored at both ends`);
  return `^\\s*(?:${re.source.slice(1, -1)})\\s*$`;
};
/**
 * Text as the server takes it: white space around it trimmed first, then none of the characters
 * `unsafe` names, and (unless it may be empty) at least one character left.
 */
const trimmedText = (unsafe: string, mayBeEmpty = false) => {
  const body = `[^\\s${unsafe}](?:[^${unsafe}]*[^\\s${unsafe}])?`;
  return `^\\s*${mayBeEmpty ? `(?:${body})?` : body}\\s*$`;
};

/**
 * Every string field's rule as one JSON Schema pattern (ECMA-262), published in the OpenAPI
 * description beside the lengths zod's own JSON Schema gives: a value matches exactly when the
 * checks above accept it, white space around it included (they trim it). The one rule no pattern
 * states depends on the clock: `consentTimestamp` may not lie more than 5 minutes ahead, which the
 * description says in words. `tests/http/schema-conformance.test.ts` holds the two together.
 */
export const PUBLISHED_PATTERNS = {
  name: trimmedText(NOT_IN_ONE_LINE),
  // PHONE_SYNTAX with libphonenumber's U.S. numbers in service, derived from its data (`phone-pattern.ts`).
  get phone() {
    return phonePattern();
  },
  email: aroundTrimmed(z.regexes.email),
  bedrooms: aroundTrimmed(BEDROOMS_PATTERN),
  bathrooms: aroundTrimmed(BATHROOMS_PATTERN),
  service: trimmedText(NOT_IN_ONE_LINE),
  notes: trimmedText(NOT_IN_TEXT, true),
  consentTimestamp: z.regexes.datetime({ offset: true }).source,
  pageUrl: aroundTrimmed(PAGE_URL_PATTERN),
  postalCode: aroundTrimmed(POSTAL_CODE_PATTERN),
  /** Of each of `preferredDates`. */
  preferredDate: z.regexes.date.source,
  helpWith: trimmedText(NOT_IN_ONE_LINE),
  message: trimmedText(NOT_IN_TEXT),
};
