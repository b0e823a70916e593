/**
 * `/openapi.json`: `spec/openapi.yaml` (the prose, paths and shapes) bundled by Redocly at build
 * time and completed from the code, so that each fact the server enforces is stated once:
 *   - `{{name}}` in any text becomes the fact of that name (`FACTS` in `src/service-info.ts`);
 *   - the problem codes and every problem example come from the registry, the examples of field
 *     errors from the validation itself;
 *   - every answer of the deprecated alias carries its Deprecation, Link and Sunset headers;
 *   - `servers` and every link name this deployment's `SITE_URL`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { validateLead } from '../leads/validate.ts';
import { Problem, problemDocument } from '../problems/problem.ts';
import { PROBLEM_CODES, PROBLEMS, type ProblemCode } from '../problems/registry.ts';
import { API_PATHS, fact, RATE_LIMIT, RATE_LIMIT_POLICY } from '../service-info.ts';

/** The source of the description; paths resolve from the project root, where builds run. */
export const SPEC_PATH = resolve('spec/openapi.yaml');
/** The origin the source's examples are written with, replaced by `SITE_URL` when bundling. */
const SOURCE_ORIGIN = 'http://localhost:4321';

/** The request id and lead id the examples show. */
const EXAMPLE_REQUEST_ID = '6f1c1f7e-2a53-4c47-9d0e-6a4f3b0c2d11';
const EXAMPLE_LEAD_ID = '3f2a9c1e-8b4d-4e6f-9a1b-2c3d4e5f6a7b';

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

/** The example of a problem code: the registry's texts, and field errors as the validation words them. */
function problemExample(code: ProblemCode, quoteExample: Json): Json {
  const errorsOf = (body: Json) => {
    const result = validateLead(body);
    if (result.ok) throw new Error(`the ${code} example body is valid`);
    return result.errors;
  };
  const extra =
    code === 'consent_required' ? { errors: errorsOf({ ...quoteExample, communicationsConsent: false, email: 'jane.doe@example' }) }
    : code === 'validation_failed' ? { errors: errorsOf({ ...quoteExample, email: 'jane.doe@example', bedrooms: undefined }) }
    : code === 'duplicate_submission' ? { leadId: EXAMPLE_LEAD_ID }
    : {};
  return problemDocument(new Problem(code, PROBLEMS[code].description, extra), { siteUrl: SOURCE_ORIGIN, requestId: EXAMPLE_REQUEST_ID });
}

/** Completes the bundled source from the code (see the module comment); throws on a fact or code it does not know. */
function complete(source: Json): Json {
  const doc = mapStrings(source, (s) => s.replace(/\{\{(\w+)\}\}/g, (_, name: string) => fact(name, 'spec/openapi.yaml')));
  const { components } = doc;

  components.schemas.ProblemCode.enum = [...PROBLEM_CODES];
  const quoteExample = components.examples.QuoteRequest.value;
  const exampleOf = (stub: Json, where: string) => {
    if (!PROBLEM_CODES.includes(stub.code)) throw new Error(`spec/openapi.yaml ${where} names the problem code "${stub.code}", which the registry does not have`);
    return problemExample(stub.code, quoteExample);
  };
  for (const [name, example] of Object.entries(components.examples as Record<string, Json>)) {
    if (!example.value?.code) continue;
    example.value = exampleOf(example.value, `#/components/examples/${name}`);
    example.summary = `${example.value.status} ${example.value.code}`;
  }
  components.schemas.Problem.examples = components.schemas.Problem.examples.map((stub: Json) => exampleOf(stub, 'Problem.examples'));

  components.headers['RateLimit-Limit'].schema.example = RATE_LIMIT.points;
  components.headers['RateLimit-Policy'].schema.const = RATE_LIMIT_POLICY;

  // The alias answers as v1 does, and adds its deprecation headers to every answer.
  const aliasHeaders = Object.fromEntries(['Deprecation', 'Link', 'Sunset'].map((h) => [h, { $ref: `#/components/headers/${h}` }]));
  const alias = doc.paths[API_PATHS.deprecatedLeads].post;
  alias.responses = Object.fromEntries(Object.entries(alias.responses as Record<string, Json>).map(([status, response]) => {
    const shared = response.$ref ? components.responses[response.$ref.split('/').pop()] : response;
    return [status, { ...structuredClone(shared), headers: { ...shared.headers, ...aliasHeaders } }];
  }));
  return doc;
}

function rebase<T>(value: T, siteUrl: string): T {
  return mapStrings(value, (s) => s.replaceAll(SOURCE_ORIGIN, siteUrl));
}

const cache = new Map<string, Json>();

/** The OpenAPI document for a deployment at `siteUrl`: bundled, completed from the code, rebased. */
export function openApiDocument(siteUrl: string): Json {
  const cached = cache.get(siteUrl);
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  try {
    const out = join(dir, 'openapi.json');
    redocly(['bundle', SPEC_PATH, '--ext', 'json', '-o', out]);
    const doc = rebase(complete(JSON.parse(readFileSync(out, 'utf8'))), siteUrl);
    doc.servers = [{ url: siteUrl, description: 'Production: this deployment', 'x-internal': false }];
    cache.set(siteUrl, doc);
    return doc;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
