/**
 * A web form's answers as the API would receive them: every field by its API name; the optional
 * ones the person left empty left out (an empty ZIP code is no ZIP code), and the days they chose
 * (three date boxes of one name) as the list `preferredDates`. A count past the listed choices
 * ("5+") is the number typed in its box (`bedroomsMore`), or `more` while the box is empty.
 */
import type { WebForm } from '../site/forms.ts';
import { COUNT_LISTS, MORE } from './choices.ts';

/** The fields each form sends, by their API names, in the order the page shows them. */
export const FORM_FIELDS = {
  quote: [
    'name',
    'phone',
    'email',
    'postalCode',
    'bedrooms',
    'bathrooms',
    'service',
    'preferredDates',
    'preferredWindow',
    'timeOfDay',
    'frequency',
    'allowedContact',
    'preferredContact',
    'notes',
  ],
  support: ['name', 'phone', 'email', 'helpWith', 'message', 'allowedContact', 'preferredContact'],
} as const satisfies Record<WebForm, readonly string[]>;

/** Fields a person may leave empty, sent only when answered (the notes are sent empty: the API has them required). */
const LEFT_OUT_WHEN_EMPTY = new Set(['postalCode', 'preferredDates', 'preferredWindow', 'timeOfDay', 'frequency', 'preferredContact']);

/** Fields of several boxes of one name (the days; the ways ticked), kept as one text and sent as a list. */
const LISTS = new Set(['preferredDates', 'allowedContact']);

/** How many date boxes the quote form has, all named `preferredDates`. */
export const DATE_BOXES = 3;

/** A field as typed: a browser sends a text box's line breaks as CR LF, counted here as one character, as the page's counter does. */
const text = (value: FormDataEntryValue | null) => (typeof value === 'string' ? value.replace(/\r\n/g, '\n') : '');

/** The name of the box for a count past the listed choices. */
export const moreBox = (name: string) => `${name}More`;

/** One field as typed, kept whole to be shown again. */
export function typedValue(name: string, data: FormData): string {
  // A window's first and last day, in their places (`from/to`), either one left empty.
  if (name === 'preferredWindow') {
    const [from = '', to = ''] = data.getAll(name).map((d) => text(d).trim());
    return from || to ? `${from}/${to}` : '';
  }
  if (LISTS.has(name))
    return data
      .getAll(name)
      .map((d) => text(d).trim())
      .filter(Boolean)
      .join(' ');
  const value = text(data.get(name));
  if (COUNT_LISTS[name] && value === MORE) return text(data.get(moreBox(name))).trim() || MORE;
  return value;
}

/**
 * What the person typed, by field, kept whole to be shown again: the chosen days as one text
 * (`2026-12-05 2026-12-07`), the boxes left empty dropped.
 */
export function typedValues(form: WebForm, data: FormData): Record<string, string> {
  return Object.fromEntries(FORM_FIELDS[form].map((name) => [name, typedValue(name, data)]));
}

/** The items of a list field as typed (`typedValues` keeps them as one text): the days, one per box; the ways ticked. */
export const typedList = (values: Record<string, string>, name: string) => (values[name] ?? '').split(' ').filter(Boolean);
/** The days typed, one per box. */
export const typedDates = (values: Record<string, string>) => typedList(values, 'preferredDates');

/** A window as typed (`from/to`) as the API's member: the days given (one left empty is refused as missing). */
const typedWindow = (value: string) => {
  const [from = '', to = ''] = value.split('/');
  return { ...(from && { from }), ...(to && { to }) };
};

/** The hidden field beside the ways we may reach the person: the page had their boxes. */
export const WAYS_SHOWN = 'allowedContactShown';

/**
 * The answers as the API's members. The ways we may reach the person are sent as ticked when the
 * page had their boxes (`waysShown`): none ticked is an empty list, which the API refuses (at least
 * one way), never "any"; a page drawn without them (before they were asked) sends none, which is any.
 */
export function apiMembers(values: Record<string, string>, waysShown = true): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values)
      .filter(([name, value]) => !(LEFT_OUT_WHEN_EMPTY.has(name) && value.trim() === ''))
      .filter(([name, value]) => !(name === 'allowedContact' && !waysShown && value === ''))
      .map(([name, value]) => [name, LISTS.has(name) ? typedList(values, name) : name === 'preferredWindow' ? typedWindow(value) : value]),
  );
}
