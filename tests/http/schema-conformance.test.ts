/**
 * The published schema never contradicts the server. Bodies are generated from the lead schemas of
 * the OpenAPI description the site serves as `/openapi.json` (fast-check, through
 * `schemaArbitrary`), then broken field by field with values chosen to sit on each rule's edge, and
 * each is sent in process, to both lead paths (`/api/v1/leads` and its alias `/api/leads`), with
 * the rate limit out of the way. Every body the schema accepts (ajv, JSON Schema 2020-12) must be
 * stored (201, or 409 for a repeat); every body it refuses must get a 422 whose `errors` point
 * exactly where the validator points. The exceptions are the rules the schema states in words: those
 * of the clock (a consent timestamp ahead of it), and a first way to try outside the customer's limits. The phone's pattern holds the
 * whole +1 plan as the server does: a number of the United States or its territories is taken, one
 * of the plan's other countries (Canada, the Caribbean) refused.
 */
import fc from 'fast-check';
import { getCountries, getCountryCallingCode, getExampleNumber } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/examples.mobile.json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/discovery/openapi.ts';
import { MAX_WINDOW_DAYS, PREFERRED_DATES_DAYS_AHEAD, type FieldName } from '../../src/leads/fields.ts';
import { CONSENT_CLOCK_SKEW_MS } from '../../src/leads/schema.ts';
import { validateLead } from '../../src/leads/validate.ts';
import type { RateLimiter } from '../../src/limiter/rate-limiter.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { company, contact, offer, promise, quote } from '../support/fixtures.ts';
import { postJson } from '../support/in-process.ts';
import { schemaArbitrary } from '../support/schema-arbitrary.ts';
import { schemaOracle } from '../support/schema-oracle.ts';
import { COMBINATIONS, EDGES, FIELDS, OTHER_TYPES, STRANGERS, TEXT_EDGES, withMember } from '../support/lead-probes.ts';

type Body = Record<string, unknown>;

/** The rate limit out of the way: every request is within it. */
const state = { allowed: true, limit: 1_000_000, remaining: 1_000_000, resetSeconds: 60 };
const unlimited: RateLimiter = { consume: async () => state, peek: async () => state, refused: () => undefined };

const doc = openApiDocument('http://localhost:4321', offer(), company());
const oracle = schemaOracle(doc, {
  consentSkewMs: CONSENT_CLOCK_SKEW_MS,
  timeZone: promise().timeZone,
  daysAhead: PREFERRED_DATES_DAYS_AHEAD,
  windowDays: MAX_WINDOW_DAYS,
});
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

/** Sends `body` to `path` and holds the answer against the schema's verdict; the verdict, for a caller that expects one. */
async function holdsToSchema(body: Body, path: LeadPath = PATHS[0]): Promise<'stored' | 'refused' | 'too large'> {
  const json = JSON.stringify(body);
  if (Buffer.byteLength(json) > BODY_LIMIT) return 'too large';
  const verdict = oracle.judge(body);
  const words = oracle.inWords(body);
  const reply = await postJson(app, path, json);
  const what = `${path} ${json.slice(0, 400)} -> ${reply.status} ${reply.text.slice(0, 600)}`;
  if (verdict.valid && words.size === 0) {
    expect([201, 409], `the schema accepts it, so it is stored: ${what}`).toContain(reply.status);
    return 'stored';
  }
  expect(reply.status, `the schema refuses it (${[...verdict.pointers, ...words].join(' ')}): ${what}`).toBe(422);
  const pointed = new Set<string>(reply.json.errors.map((e: { pointer: string }) => e.pointer));
  expect([...pointed].sort(), what).toEqual([...new Set([...verdict.pointers, ...words])].sort());
  return 'refused';
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
        for (const combination of COMBINATIONS) await holdsToSchema({ ...base, ...combination }, path);
      }
    expect(sent).toBeGreaterThan(1000);
  });

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
  });

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
  });
});
