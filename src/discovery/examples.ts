/** Complete example requests, taken from the OpenAPI description's own examples so that they cannot drift. */
import { getConfig } from '../config.ts';
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
    `curl -i ${getConfig().siteUrl}/api/v1/leads \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"' \\`,
    `  -d '${body}'`,
  ].join('\n');
}
