/**
 * `/openapi.json`: `spec/openapi.yaml` (the prose, paths and shapes) bundled by Redocly at build
 * time and completed from the code, so that each fact the server enforces is stated once:
 *   - `{{name}}` in any text becomes the fact of that name (`FACTS` in `src/service-facts.ts`), or what
 *     the editors say of the company (`{{serviceArea}}`, `{{officePhone}}`), and `{{usageRules}}`
 *     the numbered usage rules; `info.x-company` states the company's facts for programs;
 *   - the lead forms' fields take their constraints from the validation itself: required fields,
 *     lengths and constants from zod's JSON Schema of each form, one pattern per string field
 *     (`PUBLISHED_PATTERNS`); the YAML gives only the words and the examples;
 *   - the services and contact topics the forms offer are enumerated beside the free text that
 *     `service` and `helpWith` take, and the guidance for agents (`AGENT_GUIDANCE`) joins the
 *     fields it is about;
 *   - the `Idempotency-Key` header's pattern and lengths are the parser's own;
 *   - the problem codes and every problem example (one per code, on the `Problem` schema) come from
 *     the registry, the examples of field errors from the validation itself;
 *   - `servers` and every link name this deployment's `SITE_URL`; `servers` says what the
 *     deployment is for, as the running server's configuration fills it in.
 * The deprecated alias answers as v1 does, with the same shared answers; its operation says which
 * headers it adds. The whole stays under 50,000 bytes as compact JSON: each rule is said once, on
 * what it governs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ContactMessage, PUBLISHED_PATTERNS, QuoteRequest } from '../leads/schema.ts';
import { CONTACT_WAYS, MAX_PREFERRED_DATES } from '../leads/fields.ts';
import { validateLead } from '../leads/validate.ts';
import { Problem, problemDocument } from '../problems/problem.ts';
import { PROBLEM_CODES, PROBLEMS, type ProblemCode } from '../problems/registry.ts';
import { IDEMPOTENCY_KEY_PATTERN, MAX_KEY_HEADER_LENGTH } from '../http/idempotency-key.ts';
import { whatHappensNext } from '../leads/next-step.ts';
import { configuredMarker } from '../site/configured-values.ts';
import { companyTimeWords, type CompanyFacts } from './company-facts.ts';
import { agentGuidance, EXAMPLE_IDEMPOTENCY_KEYS, fact, LEAD_SCHEMA_PATH, RATE_LIMIT, RATE_LIMIT_POLICY, USAGE_RULES, type Offer } from '../service-facts.ts';

export type { CompanyFacts } from './company-facts.ts';

/** The source of the description; paths resolve from the project root, where builds run. */
export const SPEC_PATH = resolve('spec/openapi.yaml');
/** The origin the source's examples are written with, replaced by `SITE_URL` when bundling. */
export const SOURCE_ORIGIN = 'http://localhost:4321';

/** The request id, lead id and reference the examples show. */
const EXAMPLE_REQUEST_ID = '6f1c1f7e-2a53-4c47-9d0e-6a4f3b0c2d11';
const EXAMPLE_LEAD_ID = '3f2a9c1e-8b4d-4e6f-9a1b-2c3d4e5f6a7b';
const EXAMPLE_REFERENCE = 'Q-4TWD-8N';

/** Runs the project's Redocly CLI with telemetry off. */
export function redocly(args: string[]): void {
  execFileSync(resolve('node_modules/.bin/redocly'), args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', SCARF_ANALYTICS: 'false' },
  });
}

type Json = Record<string, any>;

/** Applies `fn` to every string of a JSON value, keys excepted. */
function mapStrings<T>(value: T, fn: (s: string) => string): T {
  if (typeof value === 'string') return fn(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn)])) as T;
  return value;
}

/**
 * The example of a problem code: the registry's title, status and resolution, a short detail (its
 * title: what the code means is said once, on /developers/errors), and field errors as the
 * validation words them.
 */
function problemExample(code: ProblemCode, quoteExample: Json, nextStep: string): Json {
  const errorsOf = (body: Json) => {
    const result = validateLead(body);
    if (result.ok) throw new Error(`the ${code} example body is valid`);
    return result.errors;
  };
  const extra =
    code === 'consent_required'
      ? { errors: errorsOf({ ...quoteExample, communicationsConsent: false, email: 'jane.doe@example' }) }
      : code === 'validation_failed'
        ? { errors: errorsOf({ ...quoteExample, email: 'jane.doe@example' }) }
        : code === 'duplicate_submission'
          ? { leadId: EXAMPLE_LEAD_ID, reference: EXAMPLE_REFERENCE, whatHappensNext: nextStep }
          : {};
  return problemDocument(new Problem(code, `${PROBLEMS[code].title}.`, extra), { siteUrl: SOURCE_ORIGIN, requestId: EXAMPLE_REQUEST_ID });
}

/** The keywords a field's constraints are made of: generated, never taken from the YAML. */
const OF_OBJECTS = ['properties', 'required', 'additionalProperties'] as const;
const CONSTRAINTS = ['type', 'minLength', 'maxLength', 'pattern', 'const', 'enum', 'items', 'minItems', 'maxItems', 'uniqueItems', ...OF_OBJECTS] as const;

/**
 * Gives both forms' fields the validation's own constraints, the agents' guidance and the offer's
 * lists; throws when the YAML and the validation do not list the same fields.
 */
function completeLeadSchemas(components: Json, offer: Offer): void {
  const guidance: Record<string, string> = agentGuidance(offer);
  const given = new Map<string, string>();
  for (const [name, form] of [
    ['QuoteRequest', QuoteRequest],
    ['ContactMessage', ContactMessage],
  ] as const) {
    const generated = z.toJSONSchema(form, { io: 'input' }) as Json;
    const described = components.schemas[name];
    const [fields, listed] = [Object.keys(generated.properties).sort(), Object.keys(described.properties).sort()];
    if (fields.join() !== listed.join()) throw new Error(`spec/openapi.yaml's ${name} lists ${listed.join(', ')}; the validation has ${fields.join(', ')}`);
    described.required = generated.required ?? [];
    described.additionalProperties = false;
    for (const field of fields) {
      const constraints: Json = {
        ...generated.properties[field],
        ...(Object.hasOwn(PUBLISHED_PATTERNS, field) && { pattern: PUBLISHED_PATTERNS[field as keyof typeof PUBLISHED_PATTERNS] }),
      };
      // Each date as its own pattern says it, all different (the validation checks that beside the schema).
      if (field === 'preferredDates')
        Object.assign(constraints, {
          items: { ...constraints.items, pattern: PUBLISHED_PATTERNS.preferredDate, maxLength: 10 },
          maxItems: MAX_PREFERRED_DATES,
          uniqueItems: true,
        });
      // Each way once (checked beside the schema too).
      if (field === 'allowedContact') Object.assign(constraints, { maxItems: CONTACT_WAYS.length, uniqueItems: true });
      let target = described.properties[field];
      const shared = target.$ref?.split('/').pop();
      if (shared) {
        target = components.schemas[shared];
        const previous = given.get(shared);
        const these = JSON.stringify(CONSTRAINTS.map((k) => constraints[k]));
        if (previous !== undefined && previous !== these)
          throw new Error(`#/components/schemas/${shared} is shared by fields the validation constrains differently`);
        given.set(shared, these);
      }
      for (const key of CONSTRAINTS) {
        if (constraints[key] === undefined) delete target[key];
        else target[key] = constraints[key];
      }
      // Which form to send is said once, on the union of the two.
      if (field !== 'formType' && guidance[field] && !target.description?.includes(guidance[field]))
        target.description = `${target.description ?? ''} ${guidance[field]}`.trim();
    }
  }
  // One day's rule, said once: each preferred date and each end of a window refer to it.
  const { PreferredDates: dates, PreferredWindow: span } = components.schemas;
  const day = () => ({ $ref: '#/components/schemas/Day' });
  components.schemas.Day = dates.items;
  Object.assign(dates, { items: day() });
  Object.assign(span.properties, { from: day(), to: day() });
  // Free text, with what the forms offer enumerated beside it: the tools list the values, the server takes either.
  for (const [target, values, title] of [
    [components.schemas.QuoteRequest.properties.service, offer.services, 'Offered'],
    [components.schemas.ContactMessage.properties.helpWith, offer.contactTopics, 'Offered'],
  ] as const) {
    // The type, the length and the pattern bound both branches (every value offered matches); the
    // free text's least length is its own.
    const free: Json = { title: 'Own words' };
    if (target.minLength !== undefined) free.minLength = target.minLength;
    delete target.minLength;
    target.anyOf = [{ title, enum: [...values] }, free];
    delete target.examples;
  }
  components.schemas.LeadSubmission.description = `${components.schemas.LeadSubmission.description} ${guidance.formType}`;
  components.parameters.IdempotencyKey.example = `"${EXAMPLE_IDEMPOTENCY_KEYS.quote}"`;
  Object.assign(components.parameters.IdempotencyKey.schema, { minLength: 1, maxLength: MAX_KEY_HEADER_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN });
  for (const [example, form] of [
    ['QuoteRequest', 'quote'],
    ['ContactMessage', 'support'],
  ] as const) {
    components.examples[example].description =
      `Sent with \`Idempotency-Key: "${EXAMPLE_IDEMPOTENCY_KEYS[form]}"\`, its own: make a new key for each submission of yours.`;
  }
}

/** Completes the bundled source from the code (see the module comment); throws on a fact or code it does not know. */
function complete(source: Json, offer: Offer, company: CompanyFacts): Json {
  const words: Record<string, string> = {
    serviceArea: company.serviceArea,
    officePhone: company.phone,
    officeEmail: company.email,
    servedPostalCodes: company.postalCodes.join(', '),
    timeZone: company.promise.timeZone,
    companyTime: companyTimeWords(company.promise),
    usageRules: USAGE_RULES.map((rule, i) => `${i + 1}. ${rule}`).join('\n'),
    leadSchemaUrl: `${SOURCE_ORIGIN}${LEAD_SCHEMA_PATH}`,
  };
  const doc = mapStrings(source, (s) =>
    s.replace(/\{\{(\w+)\}\}/g, (_, name: string) => (Object.hasOwn(words, name) ? words[name]! : fact(name, 'spec/openapi.yaml'))),
  );
  const { components } = doc;
  const { name, phone, email, serviceArea } = company;
  doc.info['x-company'] = { name, phone, email, serviceArea, time: companyTimeWords(company.promise) };

  completeLeadSchemas(components, offer);
  components.schemas.ProblemCode.enum = [...PROBLEM_CODES];
  // Each receipt's next step, as the server words it for the time the example was received.
  for (const receipt of [components.examples.QuoteReceipt.value]) receipt.whatHappensNext = whatHappensNext(new Date(receipt.receivedAt), company.promise);
  // Every problem code's example: on the schema every problem document matches, or, for a code whose
  // problem has members of its own (`errors`, `leadId`), as a named example of its answer.
  const quoteExample = components.examples.QuoteRequest.value;
  const examples = PROBLEM_CODES.map((code) => problemExample(code, quoteExample, components.examples.QuoteReceipt.value.whatHappensNext));
  const own = (e: Json) => 'errors' in e || 'leadId' in e;
  components.schemas.Problem.examples = examples.filter((e) => !own(e));
  for (const example of examples.filter(own)) {
    components.examples[example.code] = { value: example };
    const answer = components.responses[example.leadId ? 'LeadDuplicate' : 'LeadProblem'].content['application/problem+json'];
    answer.examples = { ...answer.examples, [example.code]: { $ref: `#/components/examples/${example.code}` } };
  }

  components.headers['RateLimit-Limit'].example = RATE_LIMIT.points;
  components.headers['RateLimit-Policy'].schema.const = RATE_LIMIT_POLICY;

  return doc;
}

function rebase<T>(value: T, siteUrl: string): T {
  return mapStrings(value, (s) => s.replaceAll(SOURCE_ORIGIN, siteUrl));
}

const cache = new Map<string, Json>();

/**
 * The OpenAPI document for a deployment at `siteUrl` whose forms offer `offer`, of `company`:
 * bundled, completed from the code, rebased. Inside Astro, `publishedDocument()` (`published.ts`)
 * supplies all three.
 */
export function openApiDocument(siteUrl: string, offer: Offer, company: CompanyFacts): Json {
  const key = `${siteUrl}\n${JSON.stringify(offer)}\n${JSON.stringify(company)}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  try {
    const out = join(dir, 'openapi.json');
    redocly(['bundle', SPEC_PATH, '--ext', 'json', '-o', out]);
    const doc = rebase(complete(JSON.parse(readFileSync(out, 'utf8')), offer, company), siteUrl);
    // What this deployment is for is the running configuration's: the server states it at start-up.
    doc.servers = [{ url: siteUrl, description: `${configuredMarker('environment')}: ${configuredMarker('environmentRule')}`, 'x-internal': false }];
    cache.set(key, doc);
    return doc;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
