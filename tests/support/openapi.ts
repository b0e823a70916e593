/**
 * Validates real responses against the published description (OpenAPI 3.1 = JSON Schema 2020-12):
 * `spec/openapi.yaml` completed from the code and the content, made in process as the build makes
 * `/openapi.json` for the test servers' SITE_URL (no build needed: `npm run test:unit` uses it too;
 * `tests/static/published-description.test.ts` holds it to the build's own file).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readContent } from '../../src/content-check/read.ts';
import { openApiDocument } from '../../src/discovery/openapi.ts';
import { documentedCompany } from '../../src/discovery/company-facts.ts';
import { companyOf, offerOf } from '../../src/site/from-content.ts';
import { ROOT } from './server.ts';

/** The origin a build without `SITE_URL` publishes for (the global setup's build, and the test servers'). */
export const BUILD_SITE_URL = 'http://localhost:4321';

const content = readContent(ROOT);
const company = companyOf(content.company);
/** The description a build publishes, from the project's own spec/ and content/. */
export const openapi = openApiDocument(BUILD_SITE_URL, offerOf(content.quoteForm, content.contactForm, company.name), documentedCompany(company));

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ ...openapi, $id: 'openapi' });

/** Errors of `value` against the schema of the request header `name` (`Idempotency-Key`), or an empty list. */
export function headerErrors(name: string, value: string): string[] {
  const parameter = Object.values(openapi.components.parameters as Record<string, { name: string; in: string; schema: object }>).find(
    (p) => p.in === 'header' && p.name === name,
  );
  if (!parameter) throw new Error(`no header parameter ${name}`);
  const validate = ajv.compile(parameter.schema);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.message} ${JSON.stringify(e.params)}`);
}

/** Errors of `value` against `#/components/schemas/<name>`, or an empty list. */
export function schemaErrors(name: string, value: unknown): string[] {
  const validate = ajv.getSchema(`openapi#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name}`);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

type Response = { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: { $ref?: string } }> };
type Operation = { responses: Record<string, Response> };

/** Checks a real response against the operation's documented response for its status: media type, schema, headers. */
export function responseErrors(path: string, method: string, reply: { status: number; headers: Headers; json: unknown }): string[] {
  const op = openapi.paths[path]?.[method.toLowerCase()] as Operation | undefined;
  if (!op) return [`no operation ${method} ${path}`];
  const listed = op.responses[String(reply.status)];
  const documented: Response | undefined = listed?.$ref ? openapi.components.responses[listed.$ref.split('/').pop()!] : listed;
  if (!documented) return [`status ${reply.status} is not documented for ${method} ${path}`];
  const errors: string[] = [];
  const type = reply.headers.get('content-type')?.split(';')[0];
  const content = documented.content ?? {};
  if (documented.content === undefined) {
    // A response documented without content (a 204) has no body and no media type.
    if (type !== undefined || reply.json !== undefined) errors.push(`${reply.status} is documented without a body, and came with ${type}`);
  } else {
    const media = Object.keys(content).find((m) => m.split(';')[0] === type);
    if (!media) return [`media type ${type} is not documented for ${reply.status}`];
    const ref = content[media]!.schema.$ref;
    if (ref) errors.push(...schemaErrors(ref.split('/').pop()!, reply.json));
  }
  for (const header of Object.keys(documented.headers ?? {})) {
    const optional = ['Sunset', 'Idempotent-Replayed'].includes(header);
    if (!optional && !reply.headers.has(header)) errors.push(`documented header ${header} is missing`);
  }
  return errors;
}
