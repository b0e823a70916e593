/**
 * What each field of the two forms expects, said once and worded twice: for a program (the API's
 * `errors[].detail`, "phone must be a 10-digit U.S. phone number, such as (503) 555-0142") and for
 * a person filling in the company's web form ("Enter a 10-digit U.S. phone number, such as (503)
 * 555-0142."). Validation (`validate.ts`) and the web forms both read this table, so the two can
 * never disagree about a rule.
 */
import { dateFormat } from '../lib/time.ts';

/** One field problem, with a JSON Pointer into the body: an item of a 422's `errors`. */
export interface FieldError {
  pointer: string;
  code: 'required' | 'invalid_type' | 'invalid_format' | 'too_long' | 'unknown_field' | 'consent_required' | 'not_allowed';
  detail: string;
}

interface FieldWords {
  /** What a valid value looks like, for a program: "a 10-digit U.S. phone number, such as (503) 555-0142". */
  expects: string;
  /** The same, for a person: what to do when the field is missing or wrong. */
  ask: string;
}

/**
 * What a customer who does not know their number of bedrooms or bathrooms says, spelled this one
 * way: an agent asks the customer first, and never invents a number.
 */
export const NOT_SURE = 'not sure';

/** How often a customer may want the cleaning (`frequency`). */
export const FREQUENCIES = ['once', 'weekly', 'every-two-weeks', 'monthly'] as const;
/** How a customer would rather be reached first (`preferredContact`): a preference, never consent. */
export const CONTACT_WAYS = ['call', 'text', 'email'] as const;
/** The part of the day that suits the customer for the visit (`timeOfDay`). */
export const TIMES_OF_DAY = ['morning', 'afternoon', 'any'] as const;
/** Each value of `frequency`, `preferredContact` and `timeOfDay` in words, for people (the forms, the office's page, e-mail and export). */
export const CHOICE_WORDS = {
  frequency: { once: 'Just once', weekly: 'Every week', 'every-two-weeks': 'Every two weeks', monthly: 'Once a month' },
  preferredContact: { call: 'A phone call', text: 'A text message', email: 'An e-mail' },
  timeOfDay: { morning: 'In the morning', afternoon: 'In the afternoon', any: 'Any time of day' },
} as const satisfies {
  frequency: Record<(typeof FREQUENCIES)[number], string>;
  preferredContact: Record<(typeof CONTACT_WAYS)[number], string>;
  timeOfDay: Record<(typeof TIMES_OF_DAY)[number], string>;
};

/** A preferred date (`2026-12-05`) as the office reads it: "Sat 5 Dec". */
export function dateWords(date: string): string {
  const at = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(at.getTime())) return date;
  return dateFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }).format(at).replace(',', '');
}

/** The days of a window (`preferredWindow`) in words: "Wed 16 – Sat 19 Dec", "Mon 28 Dec – Fri 1 Jan", one day alone as a day. */
export function windowWords(from: string, to: string): string {
  if (from === to) return dateWords(from);
  const [first, last] = [dateWords(from), dateWords(to)];
  const month = (words: string) => words.split(' ').at(-1);
  return `${month(first) === month(last) && from.slice(0, 4) === to.slice(0, 4) ? first.split(' ').slice(0, 2).join(' ') : first} – ${last}`;
}

/** A window of days is at most this many days from its first to its last. */
export const MAX_WINDOW_DAYS = 14;

/** At most this many `preferredDates`... */
export const MAX_PREFERRED_DATES = 3;
/** ...each from today, in the company's time zone, to this many days ahead. */
export const PREFERRED_DATES_DAYS_AHEAD = 120;

const quotedOr = (values: readonly string[]) =>
  `${values
    .slice(0, -1)
    .map((v) => `"${v}"`)
    .join(', ')} or "${values.at(-1)}"`;

/** The fields of both forms, and what each expects. */
export const FIELDS = {
  formType: { expects: '"quote" (or absent) for a quote request, or "support" for a contact message', ask: 'Send the form from this page.' },
  name: { expects: 'the customer\'s name, as a string such as "Jane Doe"', ask: 'Enter your name.' },
  phone: {
    expects: 'a 10-digit U.S. phone number with an area code in service, as a string such as "(503) 555-0142"',
    ask: 'Enter a 10-digit U.S. phone number, such as (503) 555-0142.',
  },
  email: { expects: 'an e-mail address, as a string such as "jane@example.com"', ask: 'Enter an e-mail address, such as jane@example.com.' },
  bedrooms: {
    expects: `a whole number from "0" (a studio) to "20", or "${NOT_SURE}" when the customer does not know, as a string such as "3"`,
    ask: 'Choose the number of bedrooms.',
  },
  bathrooms: {
    expects: `a number from "0.5" to "20" in halves, or "${NOT_SURE}" when the customer does not know, as a string such as "2" or "2.5"`,
    ask: 'Choose the number of bathrooms.',
  },
  service: { expects: 'the kind of cleaning, as a string such as "Deep clean"', ask: 'Choose the kind of cleaning you would like.' },
  notes: { expects: 'details about the home, as a string (it may be empty)', ask: 'Shorten your notes.' },
  communicationsConsent: {
    expects: 'the JSON value true, a boolean: submit only when the customer has asked to be contacted',
    ask: 'Tick the box to let us contact you about this request; we cannot answer it otherwise.',
  },
  consentTimestamp: {
    expects: 'an RFC 3339 date-time, as a string such as "2026-11-22T17:03:00Z"',
    ask: 'Send the form from this page.',
  },
  pageUrl: { expects: 'an absolute http or https URL, as a string such as "https://www.example-cleaning.com/quote"', ask: 'Send the form from this page.' },
  postalCode: {
    expects: 'the home\'s 5-digit U.S. ZIP code, or ZIP+4, as a string such as "97201" or "97201-1234"',
    ask: 'Enter the 5-digit ZIP code of the home, such as 97201.',
  },
  preferredDates: {
    expects:
      `up to ${MAX_PREFERRED_DATES} different dates the customer would like the visit, each written YYYY-MM-DD, from today ` +
      `(in the company's time zone) to ${PREFERRED_DATES_DAYS_AHEAD} days ahead, such as ["2026-12-05"]`,
    ask: `Choose up to ${MAX_PREFERRED_DATES} different days, from today to ${PREFERRED_DATES_DAYS_AHEAD} days ahead.`,
  },
  preferredWindow: {
    expects:
      `the first and the last day of a span the customer named, as {"from": "2026-12-16", "to": "2026-12-19"}: YYYY-MM-DD, ` +
      `from on or before to, at most ${MAX_WINDOW_DAYS} days apart, both from today to ${PREFERRED_DATES_DAYS_AHEAD} days ahead`,
    ask: `Choose the first and the last day, at most ${MAX_WINDOW_DAYS} days apart, from today to ${PREFERRED_DATES_DAYS_AHEAD} days ahead.`,
  },
  frequency: { expects: `how often the customer wants the cleaning: ${quotedOr(FREQUENCIES)}`, ask: 'Choose how often you would like us to come.' },
  preferredContact: {
    expects: `how the customer would rather be reached first: ${quotedOr(CONTACT_WAYS)} (a preference, not consent)`,
    ask: 'Choose how you would rather hear from us.',
  },
  allowedContact: {
    expects: `the only ways the office may reach the customer, each once: ${quotedOr(CONTACT_WAYS)}, such as ["email"]`,
    ask: 'Choose at least one way we may reach you.',
  },
  timeOfDay: { expects: `the part of the day that suits the customer for the visit: ${quotedOr(TIMES_OF_DAY)}`, ask: 'Choose the time of day that suits you.' },
  helpWith: { expects: 'what the message is about, as a string such as "Rescheduling a visit"', ask: 'Choose what your message is about.' },
  message: { expects: 'the message itself, as a string such as "Could the visit move to Monday?"', ask: 'Write your message.' },
} as const satisfies Record<string, FieldWords>;

export type FieldName = keyof typeof FIELDS;

/**
 * What a customer whose phone number is not a U.S. one can do instead, after where it is from
 * (`phoneAbroadDetail`: "phone has the country code +44: "). The API cannot name the office's
 * number here (it is the editors' `content/company.yaml`, which the documents agents read state);
 * every page of the site shows it.
 */
export const OUTSIDE_US_PHONE =
  "the company calls and texts U.S. numbers only. Send the customer's 10-digit U.S. phone number instead; a " +
  'customer without one can call or e-mail the office, whose phone number and e-mail address are on every page of ' +
  "the company's site, rather than send this request";

/**
 * Where a phone number that is not a U.S. one is from: another country of the +1 plan (`place` as a
 * sentence names it, "Canada", "the Bahamas", and the area code that says so), or a country with a
 * calling code of its own (`44`).
 */
export type PhoneAbroad = { place: string; areaCode: string } | { callingCode: string };

const abroadWords = (abroad: PhoneAbroad) =>
  'place' in abroad
    ? {
        api: `is a number in ${abroad.place} (area code ${abroad.areaCode}), not in the United States`,
        person: `This is a number in ${abroad.place} (area code ${abroad.areaCode}).`,
      }
    : { api: `has the country code +${abroad.callingCode}`, person: `This number has the country code +${abroad.callingCode}.` };
/** The details `phoneAbroadDetail` writes, read back: a place of the +1 plan, or a calling code. */
const ABROAD_DETAIL = /^phone (?:is a number in (.+) \(area code ([0-9]{3})\), not in the United States|has the country code \+([0-9]+)): /;

/** The detail of a phone number that is not a U.S. one: where it is from, and what the customer can do instead. */
export function phoneAbroadDetail(abroad: PhoneAbroad): string {
  return `phone ${abroadWords(abroad).api}: ${OUTSIDE_US_PHONE}`;
}

/** Where the phone number of a problem `phoneAbroadDetail` worded is from. */
function phoneAbroad(error: FieldError): PhoneAbroad | undefined {
  const [, place, areaCode, callingCode] = ABROAD_DETAIL.exec(error.detail) ?? [];
  if (place && areaCode) return { place, areaCode };
  return callingCode ? { callingCode } : undefined;
}

const isField = (name: string): name is FieldName => Object.hasOwn(FIELDS, name);

/** The field a problem points at (`#/phone` is `phone`), if it is one of the forms' fields. */
export function fieldOf(error: Pick<FieldError, 'pointer'>): FieldName | undefined {
  const name = decodeURIComponent(error.pointer.split('/')[1] ?? '');
  return isField(name) ? name : undefined;
}

/**
 * A field problem as a person should read it, beside the field on the web form; a value too long
 * says how long it is and the most it may be (`sent`), and that nothing was cut.
 */
export function personMessage(error: FieldError, sent: { maxLength?: number; length?: number } = {}): string {
  const field = fieldOf(error);
  const count = (n: number) => n.toLocaleString('en-US');
  switch (error.code) {
    case 'too_long': {
      const most =
        sent.maxLength === undefined
          ? ''
          : ` The most is ${count(sent.maxLength)} characters${sent.length === undefined ? '' : `, and this is ${count(sent.length)}`}.`;
      return `This is too long.${most} Please shorten it: nothing was cut.`;
    }
    case 'unknown_field':
      return 'This form does not take this field; send the form from this page.';
    case 'not_allowed':
      if (field === 'preferredContact') return 'Choose one of the ways you ticked, or no preference.';
      return field ? FIELDS[field].ask : 'Check this value.';
    default: {
      // A number from another country: where it is from, and what the person can do instead.
      const abroad = field === 'phone' ? phoneAbroad(error) : undefined;
      const instead = `${FIELDS.phone.ask.replace(/\.$/, '')}, or call or write to us instead (our number and address are on this page).`;
      if (abroad) return `${abroadWords(abroad).person} We call and text U.S. numbers only. ${instead}`;
      return field ? FIELDS[field].ask : 'Check this value.';
    }
  }
}
