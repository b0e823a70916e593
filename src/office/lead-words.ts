/**
 * Where and when a quote request says, in the office's words, worded once for its page and its
 * e-mail: the ZIP code with its town or "outside the service area", the days the customer chose
 * ("Sat 5 Dec"), how often, and how they would rather be reached first. A value the words do not
 * know (stored by hand, or caught as spam and never checked) is shown as it is, never dropped.
 */
import { CHOICE_WORDS, CONTACT_WAYS, dateWords, windowWords } from '../leads/fields.ts';
import { townOf, type ServiceArea } from '../leads/service-area.ts';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ZIP = /^\d{5}(-\d{4})?$/;

/** The text items of a stored list (`preferredDates`), trimmed; a lone text is a list of one, anything else is left out. */
export function textList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((item) => (typeof item === 'string' && item.trim() !== '' ? [item.trim()] : []));
}

/** One chosen day in words ("Sat 5 Dec"); anything that is not a `YYYY-MM-DD` date stays as it is. */
export const dayWords = (date: string): string => (ISO_DAY.test(date) ? dateWords(date) : date);

/** The chosen days in words: "Sat 5 Dec, Mon 7 Dec". */
export const daysWords = (dates: readonly string[]): string => dates.map(dayWords).join(', ');

/** A window of days in words ("Wed 16 – Sat 19 Dec"); anything else stored there as it is, or empty without one. */
export function spanWords(value: unknown): string {
  if (typeof value !== 'object' || value === null) return textList(value).join(' ');
  const { from, to } = value as Record<string, unknown>;
  return typeof from === 'string' && typeof to === 'string' && ISO_DAY.test(from) && ISO_DAY.test(to) ? windowWords(from, to) : JSON.stringify(value);
}

/** The number of bedrooms in words: "Studio" for none; any other value as it is ("3", "not sure"). */
export const bedroomsWords = (value: unknown): string => {
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  return text === '0' ? 'Studio' : text;
};

/** The office's own label of a field, in words it keeps to, before the form's question ("How may we reach you?"). */
export const OFFICE_LABELS: Readonly<Record<string, string>> = { allowedContact: 'Reach only by' };

/** Each way of reaching a customer, as a limit names it. */
const WAYS: Readonly<Record<string, string>> = { call: 'calls', text: 'texts', email: 'e-mail' };

/**
 * The customer's limits on how the office reaches them (`allowedContact`), in words the office keeps
 * to: "E-mail only: no calls, no texts", "Calls or e-mail; no texts"; empty when none were sent or every
 * way was allowed (no limit).
 */
export function contactLimitWords(value: unknown): string {
  const ways = textList(value);
  if (ways.length === 0) return '';
  const named = ways.map((w) => WAYS[w] ?? w);
  const not = CONTACT_WAYS.filter((w) => !ways.includes(w)).map((w) => `no ${WAYS[w]}`);
  // Every way allowed (the forms' default) is no limit: nothing to keep to, nothing shown.
  if (not.length === 0) return '';
  const list = new Intl.ListFormat('en-US', { type: 'disjunction' }).format(named);
  const said = `${list.charAt(0).toUpperCase()}${list.slice(1)}`;
  return named.length === 1 ? `${said} only: ${not.join(', ')}` : `${said}; ${not.join(', ')}`;
}

/** A choice in words ("Every two weeks", "A text message"); a value the words do not know, as it is. */
export function choiceWords(field: keyof typeof CHOICE_WORDS, value: string): string {
  const words: Record<string, string> = CHOICE_WORDS[field];
  return Object.hasOwn(words, value) ? words[value]! : value;
}

/**
 * The home's ZIP code and where it is: "97201, Portland, Oregon"; "97299, outside the service area"
 * when the lead was marked so as it came; "97201, in the service area" when the town is not known
 * (`area` not given, or changed since); the ZIP code alone when nothing is known.
 */
export function zipWords(postalCode: string, inServiceArea: boolean | undefined, area?: ServiceArea): string {
  if (inServiceArea === false) return `${postalCode}, outside the service area`;
  const town = area && ZIP.test(postalCode) ? townOf(area, postalCode) : undefined;
  if (town) return `${postalCode}, ${town}`;
  return inServiceArea ? `${postalCode}, in the service area` : postalCode;
}
