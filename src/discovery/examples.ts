/** Complete example requests, taken from the OpenAPI description's own examples so that they cannot drift. */
import { rateLimitHeaders } from '../http/headers.ts';
import { FIELDS, type FieldName } from '../leads/fields.ts';
import { EXAMPLE_IDEMPOTENCY_KEYS, FACTS, RATE_LIMIT } from '../service-facts.ts';

type Json = Record<string, any>;

/** The example body of a form, as `doc` (the completed OpenAPI description) publishes it. */
export function exampleBody(doc: Json, form: 'quote' | 'support'): Record<string, unknown> {
  return doc.components.examples[form === 'quote' ? 'QuoteRequest' : 'ContactMessage'].value;
}

/**
 * A curl command that submits the example of a form to the deployment `doc` describes, with an
 * `Idempotency-Key` of its own (the texts around it say to make a new one for each submission).
 */
export function curlExample(doc: Json, form: 'quote' | 'support'): string {
  const body = JSON.stringify(exampleBody(doc, form), null, 2).replaceAll("'", "'\\''");
  return [
    `curl -i ${doc.servers[0].url}${FACTS.leadsPath} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'Idempotency-Key: "${EXAMPLE_IDEMPOTENCY_KEYS[form]}"' \\`,
    `  -d '${body}'`,
  ].join('\n');
}

/** The 201 of a stored quote request, as the API sends it: status line, headers, formatted body. */
export function receiptExample(doc: Json): string {
  const headers = {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    ...rateLimitHeaders({ allowed: true, limit: RATE_LIMIT.points, remaining: RATE_LIMIT.points - 1, resetSeconds: RATE_LIMIT.windowSeconds }),
  };
  return [
    'HTTP/1.1 201 Created',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    JSON.stringify(doc.components.examples.QuoteReceipt.value, null, 2),
  ].join('\n');
}

/** The origin the validation's own words give their example page address on (`FIELDS.pageUrl`). */
const FIELD_EXAMPLE_ORIGIN = /https:\/\/www\.example-cleaning\.com(?=\/)/g;

/**
 * What a field expects, in the validation's own words (`FIELDS`), with an example address on the
 * deployment's own origin, as every example the documents show.
 */
export function fieldExpects(field: FieldName, origin: string): string {
  return FIELDS[field].expects.replace(FIELD_EXAMPLE_ORIGIN, origin);
}
