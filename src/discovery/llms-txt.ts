/**
 * `/llms.txt` in the llmstxt.org layout: H1, blockquote summary, details without headings, then H2
 * sections of links and `## Optional`. Generated from the same facts as the API, so it cannot drift.
 */
import { PROBLEMS, PROBLEM_CODES } from '../problems/registry.ts';
import { agentGuidance, FACTS, NOT_OFFERED, RATE_LIMIT_POLICY, SERVICE_NAME, USAGE_RULES, serviceLinks, type Offer } from '../facts.ts';
import { curlExample } from './examples.ts';

/** The text of `/llms.txt` for the deployment `doc` (the completed OpenAPI description) describes, whose forms offer `offer`. */
export function llmsTxt(doc: Record<string, any>, offer: Offer): string {
  const l = serviceLinks(doc.servers[0].url);
  const guidance = agentGuidance(offer);
  const quoted = (items: readonly string[]) => items.map((i) => `"${i}"`).join(', ');
  const lines = [
    `# ${SERVICE_NAME}`,
    '',
    '> Public, anonymous HTTP API of a residential cleaning company serving one metropolitan area in the western U.S.',
    '> It accepts cleaning quote requests and contact messages that a customer has explicitly asked the company to act on.',
    '> Agents may use it on behalf of a customer; nothing here reads or changes any other record.',
    '',
    'Rules for every caller, person or agent:',
    '',
    ...USAGE_RULES.map((rule) => `- ${rule}`),
    '- Never send credentials: no Authorization header, bearer token, API key, identity assertion or password. There is no registration.',
    '',
    `Submit with \`POST ${l.leads}\` and \`Content-Type: application/json\`, at most ${FACTS.maxBodyBytes} bytes. A quote request is the default form;`,
    'set `"formType": "support"` for a contact message. `communicationsConsent` must be the JSON value `true`, and only because the customer said so.',
    'Send a new `Idempotency-Key` (a UUID) with each submission and reuse it only to retry the same body. A complete example:',
    '',
    '```sh',
    curlExample(doc, 'quote'),
    '```',
    '',
    'Filling in a lead:',
    '',
    `- Which form: ${guidance.formType}`,
    `- \`communicationsConsent\`: ${guidance.communicationsConsent}`,
    `- \`consentTimestamp\`: ${guidance.consentTimestamp}`,
    `- \`pageUrl\`: ${guidance.pageUrl}`,
    `- \`service\`: ${guidance.service} The services offered: ${quoted(offer.services)}.`,
    `- \`helpWith\`: ${guidance.helpWith} The topics: ${quoted(offer.contactTopics)}.`,
    "- Every field's exact rule (lengths, patterns, required fields) is in the OpenAPI description; a refusal names each field and what it expects.",
    '',
    'Success is `201 Created` with `{"id": "…", "reference": "Q-7K3M-4P", "formType": "quote", "status": "received", "receivedAt": "…"}`, sent only once the lead is stored. Give the customer the `reference`: it is what they quote when they call or write to the office about this request.',
    `Rate limit: ${FACTS.rateLimit} submissions per ${FACTS.rateLimitWindowSeconds} seconds per client (\`RateLimit-Policy: ${RATE_LIMIT_POLICY}\`); after a 429, wait \`Retry-After\` seconds.`,
    'Errors are RFC 9457 problem documents (`application/problem+json`) with a stable `code` and a one-sentence `resolution`:',
    '',
    ...PROBLEM_CODES.map((code) => `- \`${code}\` (${PROBLEMS[code].status}): ${PROBLEMS[code].title}. ${PROBLEMS[code].resolution}`),
    '',
    `Not offered: ${NOT_OFFERED.join(', ')}. No OAuth metadata, no read access to leads.`,
    '',
    '## API',
    '',
    `- [OpenAPI description](${l.openapi}): OpenAPI 3.1, the exact request and response schemas, headers and examples`,
    `- [API reference](${l.apiDocs}): the same description as a readable page`,
    `- [API catalog](${l.apiCatalog}): RFC 9727 linkset pointing to all of the above`,
    `- [API status](${l.status}): discovery document and health, with links, rules and the rate-limit policy`,
    '',
    '## Guides',
    '',
    `- [Developer guide](${l.developers}): who may call the API, usage rules, quick start, rate limits, idempotency, errors, versioning`,
    `- [Error codes](${l.errors}): every problem code, what it means and what to do`,
    `- [Terms of use](${l.terms}): the rules of using the API`,
    `- [Privacy](${l.privacy}): what a lead holds, why, how long it is kept and how to ask for deletion`,
    '',
    '## Optional',
    '',
    `- [Versioning and deprecation policy](${l.deprecationPolicy}): at least ${FACTS.sunsetNoticeDays} days of notice before a version is removed`,
    `- [Deprecated alias](${l.deprecatedLeads}): \`POST ${FACTS.deprecatedLeadsPath}\` is kept for the company's own forms; use \`${l.leads}\``,
    '',
  ];
  return lines.join('\n');
}
