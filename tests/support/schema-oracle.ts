/**
 * What the published description says of a lead body, in the server's own terms: whether its
 * schema accepts the body, and if not, the JSON Pointers (`#/email`) of what it refuses, read
 * from ajv's errors for the form the body selects (as the server picks it; a list over its
 * `maxItems` is one problem at the list, as the contract says); and the one rule the
 * schema states only in words: those of the clock (a consent timestamp ahead, a day out of the window), and the
 * first way to try (`preferredContact`), which must be one of the customer's limits (`allowedContact`).
 */
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

export interface SchemaVerdict {
  valid: boolean;
  /** Where the schema refuses the body, as the server points (`#/field`, `#` for the body itself). */
  pointers: Set<string>;
}

/** The rules of the clock the description states in words. */
export interface ClockRules {
  /** How far ahead a consent timestamp may lie. */
  consentSkewMs: number;
  /** Preferred dates lie from today in this time zone to so many days ahead. */
  timeZone: string;
  daysAhead: number;
  /** The most days from a window's first to its last (a rule between members, stated in words). */
  windowDays: number;
}

/** The oracle of `doc` (a completed OpenAPI description), with the rules of the clock it states in words. */
export function schemaOracle(doc: Json, rules: ClockRules) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...doc, $id: 'openapi' });
  const schema = (name: string) => ajv.getSchema(`openapi#/components/schemas/${name}`)!;
  const [union, quote, support, timestamp] = [schema('LeadSubmission'), schema('QuoteRequest'), schema('ContactMessage'), schema('ConsentTimestamp')];
  const date = schema('Day');
  const maxDates: number = doc.components.schemas.PreferredDates.maxItems;
  /** The lists whose items must all differ, with their most items. */
  const lists = { preferredDates: doc.components.schemas.PreferredDates, allowedContact: doc.components.schemas.AllowedContact } as Record<
    string,
    { maxItems: number }
  >;
  const segment = (s: string) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'));
  const pointerOf = (e: ErrorObject): string | undefined => {
    // A oneOf's error sums up its branches; the branch the body selects is checked alone below.
    if (e.keyword === 'oneOf' || e.keyword === 'if') return undefined;
    const path = e.instancePath
      .split('/')
      .slice(1)
      .map((s) => encodeURIComponent(s));
    const child = e.params.missingProperty ?? e.params.additionalProperty ?? e.params.unevaluatedProperty;
    return ['#', ...path, ...(child === undefined ? [] : [segment(child as string)])].join('/');
  };
  const isObject = (body: unknown): body is Json => typeof body === 'object' && body !== null && !Array.isArray(body);

  return {
    /** The schema's verdict on `body`. */
    judge(body: unknown): SchemaVerdict {
      if (union(body)) return { valid: true, pointers: new Set() };
      if (!isObject(body)) return { valid: false, pointers: new Set(['#']) };
      const selected = body.formType === undefined || body.formType === 'quote' ? quote : body.formType === 'support' ? support : undefined;
      if (!selected) return { valid: false, pointers: new Set(['#/formType']) };
      if (selected(body)) throw new Error('the oneOf refuses a body that the form it selects accepts');
      // A list longer than its `maxItems` is one problem at the list: its items are not checked (the contract's rule).
      const overlong = selected.errors!.filter((e) => e.keyword === 'maxItems').map(pointerOf);
      const pointers = selected.errors!.map(pointerOf).filter((p): p is string => p !== undefined && !overlong.some((list) => p.startsWith(`${list}/`)));
      // ajv skips `uniqueItems` among items of another type than the one it knows the items have
      // ([null, null]); JSON Schema (and Python's jsonschema) does not: a list of two equal items is refused.
      for (const [name, list] of Object.entries(lists)) {
        const items: unknown = body[name];
        if (Array.isArray(items) && items.length <= list.maxItems && new Set(items.map((i) => JSON.stringify(i))).size < items.length)
          pointers.push(`#/${name}`);
      }
      return { valid: false, pointers: new Set(pointers) };
    },
    /** Where the rules the schema states in words refuse `body`: of the clock, and the first way among the limits. */
    inWords(body: unknown, now = Date.now()): Set<string> {
      const out = new Set<string>();
      if (!isObject(body) || ![undefined, 'quote', 'support'].includes(body.formType)) return out;
      // A first way to try that the limits leave out (once the limits name at least one way).
      const ways = ['call', 'text', 'email'];
      const allowed = Array.isArray(body.allowedContact) ? body.allowedContact.filter((w: unknown) => ways.includes(w as string)) : [];
      if (allowed.length > 0 && ways.includes(body.preferredContact) && !allowed.includes(body.preferredContact)) out.add('#/preferredContact');
      const at = body.consentTimestamp;
      if (typeof at === 'string' && timestamp(at) && Date.parse(at) > now + rules.consentSkewMs) out.add('#/consentTimestamp');
      // Preferred dates and a window's days: from today where the company is, to so many days ahead.
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: rules.timeZone }).format(now);
      const last = new Date(Date.parse(`${today}T00:00:00Z`) + rules.daysAhead * 86_400_000).toISOString().slice(0, 10);
      const outside = (d: unknown) => typeof d === 'string' && date(d) && (d < today || d > last);
      if (Array.isArray(body.preferredDates) && body.preferredDates.length <= maxDates) {
        body.preferredDates.forEach((d: unknown, i: number) => {
          if (outside(d)) out.add(`#/preferredDates/${i}`);
        });
      }
      // A window: each day in it; its last neither before its first nor more than so many days after it.
      const span = body.preferredWindow;
      if (isObject(span)) {
        for (const key of ['from', 'to']) if (outside(span[key])) out.add(`#/preferredWindow/${key}`);
        const apart = date(span.from) && date(span.to) ? (Date.parse(span.to) - Date.parse(span.from)) / 86_400_000 : 0;
        if (apart < 0 || apart > rules.windowDays) out.add('#/preferredWindow/to');
      }
      return out;
    },
  };
}
