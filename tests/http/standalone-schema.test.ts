/**
 * The request body's JSON Schema on its own (`/schemas/lead-submission.json`): one JSON Schema
 * 2020-12 document with its own `$id` and no reference outside itself, which validators that know
 * nothing of OpenAPI read as it is. ajv (strict, with its formats) and Python's `jsonschema` (as
 * JSON Schema 2020-12 has it by default: `format` an annotation) are held to the server on the
 * schema-conformance probes and on bodies drawn from the schema itself: all three give each body
 * the same verdict, but for the rules the schema states in words (of the clock; the first way among the limits). (Python's optional
 * format checker is not asked: its date-time refuses the year 0000, which RFC 3339 and the server
 * take.) Python is run as `python3` with its `jsonschema` module (Debian's python3-jsonschema):
 * without it the Python half is skipped, and in CI it fails.
 */
import { spawnSync } from 'node:child_process';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadSubmissionSchema, portablePattern } from '../../src/discovery/lead-schema.ts';
import { openApiDocument } from '../../src/discovery/openapi.ts';
import { MAX_WINDOW_DAYS, PREFERRED_DATES_DAYS_AHEAD } from '../../src/leads/fields.ts';
import { CONSENT_CLOCK_SKEW_MS } from '../../src/leads/schema.ts';
import type { RateLimiter } from '../../src/limiter/rate-limiter.ts';
import { LEAD_SCHEMA_PATH, MAX_BODY_BYTES } from '../../src/service-facts.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { company, contact, offer, promise, quote } from '../support/fixtures.ts';
import { postJson } from '../support/in-process.ts';
import { probeBodies } from '../support/lead-probes.ts';
import { schemaArbitrary } from '../support/schema-arbitrary.ts';
import { schemaOracle } from '../support/schema-oracle.ts';

type Body = Record<string, unknown>;

const ORIGIN = 'http://localhost:4321';
const doc = openApiDocument(ORIGIN, offer(), company());
const schema = leadSubmissionSchema(doc);
const oracle = schemaOracle(doc, {
  consentSkewMs: CONSENT_CLOCK_SKEW_MS,
  timeZone: promise().timeZone,
  daysAhead: PREFERRED_DATES_DAYS_AHEAD,
  windowDays: MAX_WINDOW_DAYS,
});

/**
 * The Python with `jsonschema`: the one on the PATH (this kind of machine ships it with the module),
 * else Debian's, which `.ci/run` gives the module (python3-jsonschema); in CI none is a failure, not a skip.
 */
function pythonWithJsonschema(): string | undefined {
  for (const python of ['python3', '/usr/bin/python3']) if (spawnSync(python, ['-c', 'import jsonschema'], { encoding: 'utf8' }).status === 0) return python;
  const message = 'python3 with its jsonschema module is not installed (apt-get install -y python3-jsonschema)';
  if (process.env.CI) throw new Error(`CI requires ${message}`);
  console.warn(`${message}: the Python half of the standalone schema's test is skipped`);
  return undefined;
}
const PYTHON = pythonWithJsonschema();

/** Python's verdict on each of `bodies`, the schema checked first against its metaschema. */
const PYTHON_VALIDATE = `
import json, sys
from jsonschema import Draft202012Validator
data = json.load(sys.stdin)
Draft202012Validator.check_schema(data["schema"])
validator = Draft202012Validator(data["schema"])
json.dump([validator.is_valid(b) for b in data["bodies"]], sys.stdout)
`;
function pythonVerdicts(bodies: Body[]): boolean[] {
  const run = spawnSync(PYTHON!, ['-c', PYTHON_VALIDATE], { input: JSON.stringify({ schema, bodies }), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as boolean[];
}

/** ajv as any caller would use it: strict, JSON Schema 2020-12, with the standard formats, and nothing of OpenAPI. */
function ajvValidator() {
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  return ajv.compile(schema);
}

/** The rate limit out of the way: every request is within it. */
const state = { allowed: true, limit: 1_000_000, remaining: 1_000_000, resetSeconds: 60 };
const unlimited: RateLimiter = { consume: async () => state, peek: async () => state, refused: () => undefined };
let app: TestApp;
beforeAll(async () => {
  app = await testApp({ overrides: { limiter: unlimited } });
});
afterAll(() => app?.dispose());

describe('the request body schema on its own', () => {
  it('spells its patterns as every engine reads them alike', () => {
    expect(JSON.stringify(schema)).not.toMatch(/\\\\[sSdDwW]/);
    expect(portablePattern('^\\s*[^\\s\\u0000]\\d{5}\\S$')).toBe(
      '^[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]*[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff\\u0000][0-9]{5}[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]$',
    );
    // The same strings as ECMA-262's own classes.
    for (const text of [' ', '\u0085', '\ufeff', '\u00a0', '\u2028', 'x', '\u0669', '5'])
      for (const p of ['^\\s$', '^\\S$', '^\\d$', '^[^\\s]$'])
        expect(new RegExp(portablePattern(p), 'u').test(text), `${p} ${JSON.stringify(text)}`).toBe(new RegExp(p, 'u').test(text));
  });

  it('is one JSON Schema 2020-12 document with its own $id, referring to nothing outside itself, with no OpenAPI keyword', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(`${ORIGIN}${LEAD_SCHEMA_PATH}`);
    const refs = [...JSON.stringify(schema).matchAll(/"\$ref":"([^"]*)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(5);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/\$defs\/\w+$/);
      expect(schema.$defs[ref.split('/').pop()!], ref).toBeDefined();
    }
    expect(JSON.stringify(schema)).not.toMatch(/"(components|discriminator|nullable|example|xml|externalDocs)":/);
    // The union of the two forms, as the description's LeadSubmission.
    expect(schema.oneOf).toEqual([{ $ref: '#/$defs/QuoteRequest' }, { $ref: '#/$defs/ContactMessage' }]);
    expect(schema.$defs.QuoteRequest.properties).toEqual(expect.objectContaining({ name: { $ref: '#/$defs/Name' } }));
  });

  it('ajv and Python give each probe the verdict the server gives, but for the rules stated in words', async () => {
    const validate = ajvValidator();
    const drawn = fc.sample(fc.oneof(schemaArbitrary(schema, { $ref: '#/$defs/QuoteRequest' }), schemaArbitrary(schema, { $ref: '#/$defs/ContactMessage' })), {
      numRuns: 300,
      seed: 4711,
    }) as Body[];
    const bodies = [...probeBodies([quote(), contact()]), ...drawn].filter((b) => Buffer.byteLength(JSON.stringify(b)) <= MAX_BODY_BYTES);
    expect(bodies.length).toBeGreaterThan(1000);
    const python = PYTHON ? pythonVerdicts(bodies) : undefined;
    const disagree: string[] = [];
    let stored = 0;
    for (const [i, body] of bodies.entries()) {
      const json = JSON.stringify(body);
      const reply = await postJson(app, '/api/v1/leads', json);
      const accepted = reply.status === 201 || reply.status === 409;
      if (!accepted && reply.status !== 422) disagree.push(`${json.slice(0, 200)}: the server answered ${reply.status}`);
      if (accepted) stored++;
      const byAjv = validate(body);
      const words = oracle.inWords(body);
      const what = `${json.slice(0, 200)} (server ${accepted ? 'accepts' : 'refuses'}${words.size ? `, a rule in words refuses ${[...words].join(' ')}` : ''})`;
      // A rule stated in words (of the clock; the first way among the limits): the schema accepts what the server refuses for it alone.
      if (words.size === 0 ? byAjv !== accepted : accepted) disagree.push(`ajv ${byAjv ? 'accepts' : 'refuses'} ${what}`);
      if (python && python[i] !== byAjv) disagree.push(`Python ${python[i] ? 'accepts' : 'refuses'}, ajv ${byAjv ? 'accepts' : 'refuses'} ${what}`);
    }
    expect(disagree).toEqual([]);
    // Both verdicts are well represented.
    expect(stored).toBeGreaterThan(200);
    expect(bodies.length - stored).toBeGreaterThan(300);
  });
});
