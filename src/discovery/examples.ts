/** Complete example requests, taken from the OpenAPI description's own examples so that they cannot drift. */
import { getConfig } from '../config.ts';
import { rateLimitHeaders } from '../http/headers.ts';
import { FACTS, RATE_LIMIT } from '../service-info.ts';
import { openApiDocument } from './openapi.ts';

/** The example body of a form, as published in `spec/openapi.yaml`. */
export function exampleBody(form: 'quote' | 'support'): Record<string, unknown> {
  const doc = openApiDocument(getConfig().siteUrl);
  return doc.components.examples[form === 'quote' ? 'QuoteRequest' : 'ContactMessage'].value;
}

/** A curl command that submits the example of a form to this deployment. */
export function curlExample(form: 'quote' | 'support'): string {
  const body = JSON.stringify(exampleBody(form), null, 2).replaceAll("'", "'\\''");
  return [
    `curl -i ${getConfig().siteUrl}${FACTS.leadsPath} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"' \\`,
    `  -d '${body}'`,
  ].join('\n');
}

/** The 201 of a stored quote request, as the API sends it: status line, headers, formatted body. */
export function receiptExample(): string {
  const doc = openApiDocument(getConfig().siteUrl);
  const headers = {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    ...rateLimitHeaders({ allowed: true, limit: RATE_LIMIT.points, remaining: RATE_LIMIT.points - 1, resetSeconds: RATE_LIMIT.windowSeconds }),
  };
  return ['HTTP/1.1 201 Created', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', JSON.stringify(doc.components.examples.QuoteReceipt.value, null, 2)].join('\n');
}
