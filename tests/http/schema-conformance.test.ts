/**
 * The published schema never contradicts the server. Bodies are generated from the lead schemas of
 * the OpenAPI description the site serves as `/openapi.json` (fast-check, through
 * `schemaArbitrary`), then broken field by field with values chosen to sit on each rule's edge, and
 * each is sent in process, to both lead paths (`/api/v1/leads` and its alias `/api/leads`), with
 * the rate limit out of the way. Every body the schema accepts (ajv, JSON Schema 2020-12) must be
 * stored (201, or 409 for a repeat); every body it refuses must get a 422 whose `errors` point
 * exactly where the validator points. The one exception is the rule the schema states in words
 * because it depends on the clock (a consent timestamp ahead of it). The phone's pattern holds the
 * whole +1 plan as the server does: a number of the United States or its territories is taken, one
 * of the plan's other countries (Canada, the Caribbean) refused.
 */
import fc from 'fast-check';
import { getCountries, getCountryCallingCode, getExampleNumber } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/examples.mobile.json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/discovery/openapi.ts';
import { FIELDS as LEAD_FIELDS, PREFERRED_DATES_DAYS_AHEAD, type FieldName } from '../../src/leads/fields.ts';
import { CONSENT_CLOCK_SKEW_MS, MAX_LENGTH } from '../../src/leads/schema.ts';
import { validateLead } from '../../src/leads/validate.ts';
import type { RateLimiter } from '../../src/limiter/rate-limiter.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { company, contact, offer, promise, quote } from '../support/fixtures.ts';
import { postJson } from '../support/in-process.ts';
import { schemaArbitrary } from '../support/schema-arbitrary.ts';
import { schemaOracle } from '../support/schema-oracle.ts';

type Body = Record<string, unknown>;

/** The rate limit out of the way: every request is within it. */
const state = { allowed: true, limit: 1_000_000, remaining: 1_000_000, resetSeconds: 60 };
const unlimited: RateLimiter = { consume: async () => state, peek: async () => state };

const doc = openApiDocument('http://localhost:4321', offer(), company());
const oracle = schemaOracle(doc, { consentSkewMs: CONSENT_CLOCK_SKEW_MS, timeZone: promise().timeZone, daysAhead: PREFERRED_DATES_DAYS_AHEAD });
const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const BODY_LIMIT = 20_000;
/** Both lead paths: the alias behaves the same in every respect. */
const PATHS = ['/api/v1/leads', '/api/leads'] as const;
type LeadPath = (typeof PATHS)[number];

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ overrides: { limiter: unlimited } });
});
afterAll(() => app?.dispose());

/** Every member of either form, as the server names them. */
const FIELDS = Object.keys(LEAD_FIELDS) as FieldName[];

/** Members no form has, some of them names JavaScript treats specially. */
const STRANGERS = ['extra', 'Name', 'id', '__proto__', 'constructor', 'toString'];

const emoji = (n: number) => '\u{1F9F9}'.repeat(n);
/** The calendar day `n` days from today where the company is (Los Angeles), `YYYY-MM-DD`. */
const day = (n: number) => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: promise().timeZone }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
};
const TEXT_EDGES = [
  '',
  ' ',
  '\t\n',
  '\u00a0x\u00a0',
  '\ufeffx',
  'a\u202eb',
  'a\u2066b',
  'a\u0000b',
  'a\u0085b',
  'line\nbreak',
  'line\r\nbreak',
  'tab\there',
  '\u{1F9F9} broom',
  '\ud800',
];
/** Values on the edge of each field's rule, beside the text edges every string field gets. */
const EDGES: Record<FieldName, unknown[]> = {
  formType: ['quote', 'support', 'Quote', 'SUPPORT', '', null, 1],
  name: ['J', 'x'.repeat(MAX_LENGTH.name), 'x'.repeat(MAX_LENGTH.name + 1), emoji(MAX_LENGTH.name / 2), emoji(MAX_LENGTH.name / 2 + 1)],
  phone: [
    '(503) 555-0142',
    '503.555.0142',
    '+1 503 555 0142',
    '1-503-555-0142',
    '+1 (503) 555-0142',
    ' 5035550142 ',
    '5035550142',
    '503-555-01420',
    '555-0142',
    '(103) 555-0142',
    '(503) 155-0142',
    '+44 20 7946 0958',
    '+15035550142',
    '503--555--0142',
    '(503)5550142',
    '800 555 0142',
    // The +1 plan: the United States' territories are U.S. numbers, its other countries are not.
    '+1 787 555 0134',
    '(939) 555-0134',
    '+1 340 555 0134',
    '+1 671 555 0134',
    '+1 670 555 0134',
    '+1 684 622 1234',
    '+1 684 555 0134',
    '+1 604 555 0134',
    '604-555-0134',
    '+1 242 225 1234',
    '+1 441 555 0134',
    '+1 876 927 1234',
    '+1 600 555 0134',
  ],
  email: ['jane@example.com', ' jane@example.com ', 'jane@example', 'jane@@example.com', 'jane@example..com', 'jané@example.com', 'a@b.co', '@example.com'],
  bedrooms: ['0', '00', '20', '21', '3', ' 3 ', '1.5', '-1', 'not sure', 'Not sure', 'not  sure', ' not sure ', 3],
  bathrooms: ['0.5', '.5', '00.5', '000.5', '1', '1.0', '1.5', '1.50', '20.0', '20.5', '0', '0.0', '01', 'not sure', 2],
  service: ['Standard clean', 'Deep clean', 'Move-out clean, two floors', 'x'.repeat(MAX_LENGTH.service + 1), emoji(MAX_LENGTH.service / 2 + 1)],
  notes: ['', 'x'.repeat(MAX_LENGTH.notes), 'x'.repeat(MAX_LENGTH.notes + 1), '  \n  '],
  communicationsConsent: [true, false, 'true', 1, null],
  consentTimestamp: [
    '2026-11-24T09:03:00Z',
    '2026-11-24T09:03:00-08:00',
    '2026-11-24T09:03:00.123456789Z',
    '2026-11-24t09:03:00z',
    '2026-11-24 09:03:00Z',
    '2026-11-24T09:03:00',
    '2024-02-29T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-11-24T24:00:00Z',
    '2026-11-24T09:03:60Z',
    '2026-11-24T09:03:00+23:59',
    '2026-11-24T09:03:00+24:00',
    '2099-01-01T00:00:00Z',
    new Date(Date.now() + 60 * 60 * 1000).toISOString(),
    `${'2026-11-24T09:03:00.'}${'1'.repeat(30)}Z`,
  ],
  pageUrl: [
    'https://www.example.com/quote',
    'http://example.com:65535',
    'https://example.com:65536/',
    'https://example.com:99999/',
    'https://example.com:/',
    'HTTPS://EXAMPLE.COM/x',
    'https://-a.example.com',
    'https://a-.example.com',
    'https://_a.example.com',
    'https://1.2.3.4/',
    'https://1.2.3.256/',
    'https://example',
    'https://example.com.',
    'https://123',
    'https://[::1]/',
    'ftp://example.com',
    'https://exa mple.com',
    'https://example.com/a b',
    'https://example.com/\u0085',
    'https://user@example.com/',
    'example.com',
  ],
  postalCode: [
    '97201',
    '10001',
    '97201-1234',
    ' 97201 ',
    '9720',
    '972011',
    '97201-123',
    '97201 1234',
    'ABCDE',
    '00000',
    97201,
    '\u0669\u0667\u0662\u0660\u0661',
  ],
  preferredDates: [
    [],
    [day(0)],
    [day(1), day(7), day(30)],
    [day(1), day(1)],
    [day(1), day(2), day(3), day(4)],
    [day(-1)],
    [day(PREFERRED_DATES_DAYS_AHEAD)],
    [day(PREFERRED_DATES_DAYS_AHEAD + 1)],
    ['2026-02-30'],
    ['2028-02-29'],
    ['12/05/2026'],
    [`${day(3)}T10:00:00Z`],
    [3],
    [null],
    [day(2), 5, day(2)],
    day(3),
  ],
  frequency: ['once', 'weekly', 'every-two-weeks', 'monthly', 'Weekly', 'biweekly', ' once ', ''],
  preferredContact: ['call', 'text', 'email', 'e-mail', 'Call', 'phone', ''],
  helpWith: ['Rescheduling a visit', 'A question before booking', 'My own topic', 'x'.repeat(MAX_LENGTH.helpWith + 1)],
  message: ['', ' ', 'Hello', 'x'.repeat(MAX_LENGTH.message + 1)],
};
const OTHER_TYPES = [null, 0, 3.5, true, [], {}, ['Deep clean']];

/** Sends `body` to `path` and holds the answer against the schema's verdict; the verdict, for a caller that expects one. */
async function holdsToSchema(body: Body, path: LeadPath = PATHS[0]): Promise<'stored' | 'refused' | 'too large'> {
  const json = JSON.stringify(body);
  if (Buffer.byteLength(json) > BODY_LIMIT) return 'too large';
  const verdict = oracle.judge(body);
  const clock = oracle.clock(body);
  const reply = await postJson(app, path, json);
  const what = `${path} ${json.slice(0, 400)} -> ${reply.status} ${reply.text.slice(0, 600)}`;
  if (verdict.valid && clock.size === 0) {
    expect([201, 409], `the schema accepts it, so it is stored: ${what}`).toContain(reply.status);
    return 'stored';
  }
  expect(reply.status, `the schema refuses it (${[...verdict.pointers, ...clock].join(' ')}): ${what}`).toBe(422);
  const pointed = new Set<string>(reply.json.errors.map((e: { pointer: string }) => e.pointer));
  expect([...pointed].sort(), what).toEqual([...new Set([...verdict.pointers, ...clock])].sort());
  return 'refused';
}

/** A body with `key` set as JSON would carry it (`__proto__` as an own member). */
function withMember(body: Body, key: string, value: unknown): Body {
  const out = { ...body };
  Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
  return out;
}

describe('the published lead schema and the server agree', () => {
  it('on every field of both forms set to each value on the edge of its rule, or of another type, or left out, on both paths', async () => {
    let sent = 0;
    for (const path of PATHS)
      for (const base of [quote(), contact()]) {
        for (const field of FIELDS) {
          const strings = typeof EDGES[field][0] === 'string' ? TEXT_EDGES : [];
          for (const value of [...EDGES[field], ...strings, ...OTHER_TYPES]) {
            await holdsToSchema(withMember(base, field, value), path);
            sent++;
          }
          const { [field]: _, ...without } = base;
          await holdsToSchema(without, path);
        }
        for (const key of STRANGERS) await holdsToSchema(withMember(base, key, 'x'), path);
      }
    expect(sent).toBeGreaterThan(1000);
  }, 120_000);

  it("on the phone numbers of the whole +1 plan, on both paths: a U.S. region's number is stored, any other country's refused", async () => {
    // The United States and its territories: Puerto Rico, the U.S. Virgin Islands, Guam, the Northern Mariana Islands, American Samoa.
    const us = new Set(['US', 'PR', 'VI', 'GU', 'MP', 'AS']);
    const regions = getCountries().filter((region) => getCountryCallingCode(region) === '1');
    expect(regions).toEqual(expect.arrayContaining([...us, 'CA', 'BS', 'JM', 'BM']));
    for (const path of PATHS) {
      // The phone library's own example number of each region of the plan, on both forms.
      for (const region of regions) {
        const phone = getExampleNumber(region, examples)!.formatInternational();
        for (const base of [quote(), contact()])
          expect(await holdsToSchema({ ...base, phone }, path), `${region} ${phone}`).toBe(us.has(region) ? 'stored' : 'refused');
      }
      // Every area code, with an exchange and a line most of them have in service.
      for (let area = 200; area <= 999; area++) await holdsToSchema({ ...quote(), phone: `(${area}) 555-0134` }, path);
    }
    // And, without HTTP, the published pattern against the validation on many more numbers of the plan.
    const pattern = new RegExp(doc.components.schemas.Phone.pattern);
    const disagree: string[] = [];
    for (let area = 200; area <= 999; area++)
      for (let exchange = 200 + (area % 47); exchange <= 999; exchange += 47)
        for (const line of ['0134', '4321']) {
          const phone = `${area}-${exchange}-${line}`;
          if (pattern.test(phone) !== validateLead(quote({ phone })).ok) disagree.push(phone);
        }
    expect(disagree).toEqual([]);
  }, 120_000);

  it('on thousands of bodies the schemas generate, as they are and with members replaced, removed or added, on either path', async () => {
    const valid = fc.oneof(schemaArbitrary(doc, schema('QuoteRequest')), schemaArbitrary(doc, schema('ContactMessage'))) as fc.Arbitrary<Body>;
    const edge = fc.constantFrom(...FIELDS).chain((field) => fc.tuple(fc.constant<string>(field), fc.constantFrom(...EDGES[field], ...TEXT_EDGES)));
    const anyValue = fc.tuple(
      fc.constantFrom<string>(...FIELDS, ...STRANGERS),
      fc.oneof(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.jsonValue({ maxDepth: 1 }), fc.constantFrom(...OTHER_TYPES)),
    );
    const broken = fc
      .record({ body: valid, set: fc.array(fc.oneof(edge, anyValue), { maxLength: 3 }), drop: fc.subarray([...FIELDS], { maxLength: 2 }) })
      .map(({ body, set, drop }) => {
        let out: Body = Object.fromEntries(Object.entries(body).filter(([key]) => !drop.includes(key as FieldName)));
        for (const [key, value] of set) out = withMember(out, key, value);
        return out;
      });
    const body = fc.oneof({ arbitrary: valid, weight: 1 }, { arbitrary: broken, weight: 3 });
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(...PATHS), async (b, path) => {
        await holdsToSchema(b, path);
      }),
      { numRuns: 4000 },
    );
  }, 180_000);
});
