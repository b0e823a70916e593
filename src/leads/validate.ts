/**
 * Validation of a parsed JSON body against the form it selects, reporting every field problem with
 * the contract's codes and a JSON Pointer into the body.
 */
import { z } from 'zod';
import { CONTACT_WAYS, fieldOf, FIELDS, MAX_PREFERRED_DATES, MAX_WINDOW_DAYS, PREFERRED_DATES_DAYS_AHEAD, type FieldError } from './fields.ts';
import { ContactMessage, QuoteRequest, type FormType } from './schema.ts';
import { dateFormat, perMinute } from '../lib/time.ts';

export type { FieldError } from './fields.ts';

/** A submission that passed validation, with the form it selected. */
export type ValidLead = { formType: 'quote'; data: QuoteRequest } | { formType: 'support'; data: ContactMessage };

/** The outcome of validation: a valid lead, or every field problem found. */
export type Validation = { ok: true; lead: ValidLead } | { ok: false; consentMissing: boolean; errors: FieldError[] };

/** RFC 6901 pointer in its URI-fragment form (`#/email`), escaped so any member name is safe. */
export function jsonPointer(path: readonly PropertyKey[]): string {
  const segments = path.map((p) => encodeURIComponent(String(p).replaceAll('~', '~0').replaceAll('/', '~1')));
  return ['#', ...segments].join('/');
}

const FORM_LABEL: Record<FormType, string> = { quote: 'quote request', support: 'contact message' };
/** Where what a member not in the form says belongs instead: the form's own free text. */
const FREE_TEXT: Record<FormType, string> = { quote: 'notes', support: 'message' };

/** The detail of a member the form does not have: the fix is to remove it, never to correct it. */
export function unknownFieldDetail(key: string, form: FormType): string {
  return (
    `${key} is not a field of the ${FORM_LABEL[form]} form: remove it (anything the customer said that has no field ` +
    `of its own goes in ${FREE_TEXT[form]}, in their words)`
  );
}

/** What consent that is not `true` needs: on a quote request it is required, on a contact message it may be left out. */
const CONSENT_DETAIL: Record<FormType, string> = {
  quote: `communicationsConsent must be ${FIELDS.communicationsConsent.expects}`,
  support:
    'communicationsConsent, when a contact message carries it, must be the JSON value true: the company answers a ' +
    'contact message by the ways the customer allows (allowedContact, or any without it), so send the message only ' +
    'if the customer wants that answer, with communicationsConsent true or left out',
};

function toFieldError(issue: z.core.$ZodIssue, body: Record<string, unknown>, form: FormType): FieldError[] {
  const field = String(issue.path[0] ?? '');
  const pointer = jsonPointer(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ pointer: jsonPointer([...issue.path, key]), code: 'unknown_field' as const, detail: unknownFieldDetail(key, form) }));
  }
  if (field === 'communicationsConsent') {
    return [{ pointer, code: 'consent_required', detail: CONSENT_DETAIL[form] }];
  }
  // A member missing from its object (the body, or a window of days) is required, not of another type.
  const parent = issue.path.slice(0, -1).reduce<unknown>((o, key) => (o && typeof o === 'object' ? (o as Record<PropertyKey, unknown>)[key] : undefined), body);
  const absent = issue.path.length > 0 && typeof parent === 'object' && parent !== null && !Object.hasOwn(parent, issue.path.at(-1)!);
  const known = fieldOf({ pointer });
  // What the field expects, with an example: a missing field is told it too.
  const expects = known ? FIELDS[known].expects : `a ${issue.code === 'invalid_type' ? issue.expected : 'value'}`;
  switch (issue.code) {
    case 'invalid_type':
      return absent
        ? [{ pointer, code: 'required', detail: `${issue.path.join('/')} is required: ${expects}` }]
        : [{ pointer, code: 'invalid_type', detail: `${field} must be ${expects}` }];
    case 'too_small':
      return [{ pointer, code: 'required', detail: `${field} is required and must not be empty: ${expects}` }];
    case 'too_big':
      return [{ pointer, code: 'too_long', detail: `${field} must be at most ${String(issue.maximum)} characters` }];
    default:
      return [{ pointer, code: 'invalid_format', detail: issue.message.startsWith('must ') ? `${field} ${issue.message}` : issue.message }];
  }
}

/** The first and last day a preferred date may be, `YYYY-MM-DD`: today in the company's time zone, and 120 days on. */
export interface DateWindow {
  from: string;
  to: string;
}

/** The window of `PREFERRED_DATES_DAYS_AHEAD` days from the day `now` is in `timeZone`. */
export const dateWindow = perMinute((now: Date, timeZone: string): DateWindow => {
  const from = dateFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  const to = new Date(Date.parse(`${from}T00:00:00Z`) + PREFERRED_DATES_DAYS_AHEAD * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return { from, to };
});

/** Each list of the forms, with the most items it takes and what they are, in words. */
export const LISTS: Readonly<Record<string, { max: number; of: string }>> = {
  preferredDates: { max: MAX_PREFERRED_DATES, of: 'dates' },
  allowedContact: { max: CONTACT_WAYS.length, of: 'ways' },
};

/**
 * A list of the form longer than it takes is one `too_long` at the list, and its items are not
 * checked (9,000 of them would be 9,000 problems): the body without such lists, to check the rest,
 * and their problems.
 */
function overlongLists(record: Record<string, unknown>, form: z.ZodObject): { rest: Record<string, unknown>; errors: FieldError[] } {
  const rest = { ...record };
  const errors: FieldError[] = [];
  for (const [name, { max, of }] of Object.entries(LISTS)) {
    const list = record[name];
    if (!Object.hasOwn(form.shape, name) || !Array.isArray(list) || list.length <= max) continue;
    errors.push({ pointer: jsonPointer([name]), code: 'too_long', detail: `${name} must list at most ${max} ${of}` });
    delete rest[name];
  }
  return { rest, errors };
}

/**
 * What zod's schema of `preferredDates` leaves to this check: all different, each in the window
 * (a rule of the clock, which the description states in words). Checked on the body as sent, beside
 * the schema, so that its errors come with every other.
 */
function preferredDateErrors(record: Record<string, unknown>, window: DateWindow | undefined): FieldError[] {
  const dates = record.preferredDates;
  if (!Array.isArray(dates)) return [];
  const errors: FieldError[] = [];
  if (!distinct(dates)) errors.push({ pointer: '#/preferredDates', code: 'invalid_format', detail: 'preferredDates must not list the same date twice' });
  if (window)
    dates.forEach((d, i) => {
      if (isDay(d) && (d < window.from || d > window.to))
        errors.push({
          pointer: `#/preferredDates/${i}`,
          code: 'invalid_format',
          detail: `preferredDates/${i} must be a date from today, ${window.from}, to ${window.to} (${PREFERRED_DATES_DAYS_AHEAD} days ahead)`,
        });
    });
  return errors;
}

/** Whether no item of a list is listed twice, whatever its type (as JSON Schema's `uniqueItems`; an item of another type is refused on its own too). */
const distinct = (items: unknown[]) => new Set(items.map((item) => JSON.stringify(item))).size === items.length;

const isDay = (d: unknown): d is string => typeof d === 'string' && z.iso.date().safeParse(d).success;

/**
 * What zod's schema of `preferredWindow` leaves to this check: each day in the window (a rule of the
 * clock), and `to` neither before `from` nor more than `MAX_WINDOW_DAYS` after it (one problem at `to`).
 */
function windowErrors(record: Record<string, unknown>, window: DateWindow | undefined): FieldError[] {
  const span = record.preferredWindow;
  if (typeof span !== 'object' || span === null || Array.isArray(span)) return [];
  const { from, to } = span as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const [key, day] of [
    ['from', from],
    ['to', to],
  ] as const)
    if (window && isDay(day) && (day < window.from || day > window.to))
      errors.push({
        pointer: `#/preferredWindow/${key}`,
        code: 'invalid_format',
        detail: `preferredWindow/${key} must be a date from today, ${window.from}, to ${window.to} (${PREFERRED_DATES_DAYS_AHEAD} days ahead)`,
      });
  const days = isDay(from) && isDay(to) ? (Date.parse(to) - Date.parse(from)) / 86_400_000 : 0;
  if (days < 0 || days > MAX_WINDOW_DAYS)
    errors.push({
      pointer: '#/preferredWindow/to',
      code: 'invalid_format',
      detail: `preferredWindow/to must be on or after preferredWindow/from, and at most ${MAX_WINDOW_DAYS} days after it`,
    });
  return errors;
}

/**
 * What zod's schema of `allowedContact` leaves to this check, as for `preferredDates`: each way once
 * (a member of another type is refused on its own); and a first way to try (`preferredContact`)
 * that is one of the ways allowed, when both are sent.
 */
function contactErrors(record: Record<string, unknown>): FieldError[] {
  const allowed = record.allowedContact;
  if (!Array.isArray(allowed)) return [];
  const errors: FieldError[] = [];
  if (!distinct(allowed)) errors.push({ pointer: '#/allowedContact', code: 'invalid_format', detail: 'allowedContact must not list the same way twice' });
  const strings = allowed.filter((w) => typeof w === 'string');
  const first = record.preferredContact;
  const ways = strings.filter((w) => (CONTACT_WAYS as readonly string[]).includes(w));
  if (ways.length > 0 && (CONTACT_WAYS as readonly unknown[]).includes(first) && !ways.includes(first as string))
    errors.push({ pointer: '#/preferredContact', code: 'not_allowed', detail: preferredNotAllowedDetail(first as string, ways) });
  return errors;
}

/** Why a first way outside the customer's limits is refused, and what to send instead. */
export const preferredNotAllowedDetail = (first: string, allowed: readonly string[]) =>
  `preferredContact is "${first}", which allowedContact (${allowed.map((w) => `"${w}"`).join(', ')}) does not allow: the first way to ` +
  'try must be one the customer allows, so send one of those, or leave preferredContact out';

/**
 * Validates a parsed JSON body: picks the form from `formType`, then checks every field of it; with
 * `window`, also that each preferred date lies in it (a released spam keeps the dates it was sent with).
 */
export function validateLead(body: unknown, window?: DateWindow): Validation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, consentMissing: false, errors: [{ pointer: '#', code: 'invalid_type', detail: 'the request body must be a JSON object' }] };
  }
  const record = body as Record<string, unknown>;
  const selector = Object.hasOwn(record, 'formType') ? record.formType : undefined;
  if (selector !== undefined && selector !== 'quote' && selector !== 'support') {
    return {
      ok: false,
      consentMissing: false,
      errors: [{ pointer: '#/formType', code: 'not_allowed', detail: `formType must be ${FIELDS.formType.expects}` }],
    };
  }
  const form: FormType = selector === 'support' ? 'support' : 'quote';
  const schema = form === 'support' ? ContactMessage : QuoteRequest;
  const { rest, errors: tooLong } = overlongLists(record, schema);
  const result = schema.safeParse(rest);
  const beside = [...tooLong, ...preferredDateErrors(rest, window), ...windowErrors(rest, window), ...contactErrors(rest)];
  if (result.success && beside.length > 0) return { ok: false, consentMissing: false, errors: beside };
  if (result.success) {
    return {
      ok: true,
      lead: form === 'support' ? { formType: 'support', data: result.data as ContactMessage } : { formType: 'quote', data: result.data as QuoteRequest },
    };
  }
  // One problem per field: the first found (an empty value is "required", not also "invalid_format").
  const seen = new Set<string>();
  const errors = [...result.error.issues.flatMap((issue) => toFieldError(issue, rest, form)), ...beside].filter(
    (e) => !seen.has(e.pointer) && seen.add(e.pointer),
  );
  return { ok: false, consentMissing: errors.some((e) => e.code === 'consent_required'), errors };
}
