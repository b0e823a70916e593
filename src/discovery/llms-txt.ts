/**
 * `/llms.txt` in the llmstxt.org layout: H1, blockquote summary, details without headings, then H2
 * sections of links and `## Optional`. Generated from the same facts as the API, so it cannot drift.
 */
import { PROBLEMS, PROBLEM_CODES } from '../problems/registry.ts';
import { type FieldName } from '../leads/fields.ts';
import { agentGuidance, FACTS, NOT_OFFERED, RATE_LIMIT_POLICY, RULES, SERVICE_NAME, USAGE_RULES, serviceLinks, type Offer } from '../service-facts.ts';
import { configuredMarker } from '../site/configured-values.ts';
import { curlExample, fieldExpects } from './examples.ts';
import { AGENT_PRICE_NOTE, rangeWords, sizeWords, type PriceGuide } from '../prices.ts';

type Json = Record<string, any>;

// A range or a format bounds these values more tightly than their length limits do.
const SHAPED = new Set(['bedrooms', 'bathrooms', 'phone', 'consentTimestamp']);

/** One line per field of a form, required fields first: what it takes, as the validation words it, and its length limit. */
function fieldLines(doc: Json, form: 'QuoteRequest' | 'ContactMessage'): string[] {
  const origin = doc.servers[0].url as string;
  const schema = doc.components.schemas[form];
  const required = new Set<string>(schema.required);
  return Object.entries(schema.properties as Record<string, Json>)
    .map(([name, property]) => {
      const field = property.$ref ? doc.components.schemas[property.$ref.split('/').pop()] : property;
      const most = field.maxLength ?? (field.anyOf as Json[] | undefined)?.find((branch) => branch.maxLength)?.maxLength;
      // The form's own value, rather than the choice between the two forms that a refusal explains.
      const expects = name === 'formType' ? `"${field.const}"${required.has(name) ? '' : ', or leave it out'}` : fieldExpects(name as FieldName, origin);
      const limit = most === undefined || SHAPED.has(name) ? '' : `, at most ${Number(most).toLocaleString('en-US')} characters`;
      return {
        name,
        required: required.has(name),
        line: `- \`${name}\` (${required.has(name) ? 'required' : 'optional'}): ${expects}${limit}.`,
      };
    })
    .sort((a, b) => Number(b.required) - Number(a.required))
    .map((f) => f.line);
}

/** The starting prices of each service priced, when the company publishes them (nothing otherwise). */
function priceLines(guide: PriceGuide | undefined, statusPath: string): string[] {
  if (!guide) return [];
  return [
    `- Prices: ${AGENT_PRICE_NOTE} Each size's range is in \`GET ${statusPath}\` (\`priceGuide\`).`,
    ...guide.map(
      (p) => `  - "${p.service}": ${rangeWords(p)}, by the size of the home (${p.bySize.map((s) => `${sizeWords(s.bedrooms)} ${rangeWords(s)}`).join('; ')}).`,
    ),
  ];
}

/**
 * The text of `/llms.txt` for the deployment `doc` (the completed OpenAPI description) describes,
 * whose forms offer `offer`; the company's facts are the description's `info.x-company`.
 */
export function llmsTxt(doc: Json, offer: Offer): string {
  const l = serviceLinks(doc.servers[0].url);
  const company = doc.info['x-company'] as { name: string; phone: string; email: string; serviceArea: string; time: string };
  const guidance = agentGuidance(offer);
  const quoted = (items: readonly string[]) => items.map((i) => `"${i}"`).join(', ');
  const lines = [
    `# ${SERVICE_NAME}`,
    '',
    `> Public, anonymous HTTP API of ${company.name}, a residential cleaning company that cleans homes in ${company.serviceArea}.`,
    '> It accepts cleaning quote requests and contact messages that a customer has explicitly asked the company to act on.',
    '> Agents may use it on behalf of a customer; nothing here reads or changes any other record.',
    '',
    "This guide is short: every field's exact rule is in the OpenAPI description, which it links to, and a refusal names each field and what it expects.",
    '',
    'Rules for every caller, person or agent:',
    '',
    ...USAGE_RULES.map((rule) => `- ${rule}`),
    '',
    `Submit one JSON object with \`POST ${l.leads}\` and \`Content-Type: application/json\`, at most ${FACTS.maxBodyBytes} bytes. There are two forms:`,
    '',
    `- A quote request (the default: leave \`formType\` out) asks for a price for, or a visit to, clean a home.`,
    '- A contact message (`"formType": "support"`) is for anything else, a follow-up about an earlier lead included.',
    '',
    RULES.valueTypes,
    RULES.idempotencyKey,
    RULES.retry,
    `${configuredMarker('environmentRule')} \`GET ${l.status}\` says which this is (\`environment\`).`,
    '',
    "A quote request, complete (its Idempotency-Key is this example's own: make a new one for each submission of yours):",
    '',
    '```sh',
    curlExample(doc, 'quote'),
    '```',
    '',
    'Its fields:',
    '',
    ...fieldLines(doc, 'QuoteRequest'),
    '',
    'A contact message, complete (this one a follow-up: it quotes the reference of a quote request sent earlier; again, make a new Idempotency-Key):',
    '',
    '```sh',
    curlExample(doc, 'support'),
    '```',
    '',
    'Its fields:',
    '',
    ...fieldLines(doc, 'ContactMessage'),
    '',
    'Filling in a lead:',
    '',
    `- Which form: ${guidance.formType}`,
    `- \`name\`, \`phone\`, \`email\`: ${guidance.name}`,
    `- \`phone\`: ${FACTS.phoneRule} A customer without a U.S. number can call the office at ${company.phone} or write to ` +
      `${company.email} instead of sending a lead.`,
    `- \`communicationsConsent\`: ${guidance.communicationsConsent}`,
    `- \`consentTimestamp\`: ${guidance.consentTimestamp}`,
    `- \`bedrooms\`: ${guidance.bedrooms}`,
    `- \`bathrooms\`: ${guidance.bathrooms}`,
    `- \`pageUrl\`: ${guidance.pageUrl}`,
    `- \`service\`: ${guidance.service} The services offered: ${quoted(offer.services)}.`,
    ...priceLines(offer.prices, l.status),
    `- \`frequency\`: ${guidance.frequency}`,
    `- \`notes\`: ${guidance.notes}`,
    `- \`postalCode\`: ${guidance.postalCode} The ZIP codes served are listed in \`GET ${l.status}\` (\`serviceArea\`).`,
    `- \`preferredDates\`: ${guidance.preferredDates}`,
    `- \`preferredContact\`: ${guidance.preferredContact}`,
    `- \`allowedContact\`: ${guidance.allowedContact}`,
    `- \`timeOfDay\`: ${guidance.timeOfDay}`,
    `- \`preferredWindow\`: ${guidance.preferredWindow}`,
    `- \`helpWith\`: ${guidance.helpWith} The topics: ${quoted(offer.contactTopics)}.`,
    `- \`message\`: ${guidance.message}`,
    `- Days and times: ${company.time}`,
    '',
    'Success is `201 Created` with `{"id": "…", "reference": "Q-7K3M-4P", "formType": "quote", "status": ' +
      '"received", "receivedAt": "…", "whatHappensNext": "…"}`, and `"inServiceArea": true` or `false` when `postalCode` ' +
      'was sent; it is sent only once the lead is stored. Give the customer the `reference`, and read them ' +
      '`whatHappensNext`: when the office will answer, as the company promises it.',
    RULES.whatToQuote,
    RULES.duplicate,
    `Rate limit: ${FACTS.rateLimit} submissions per ${FACTS.rateLimitWindowSeconds} seconds per client ` + `(\`RateLimit-Policy: ${RATE_LIMIT_POLICY}\`).`,
    'Errors are RFC 9457 problem documents (`application/problem+json`) with a stable `code` and a one-sentence `resolution`, in the order the checks run:',
    '',
    ...PROBLEM_CODES.map((code) => `- \`${code}\` (${PROBLEMS[code].status}): ${PROBLEMS[code].title}. ${PROBLEMS[code].resolution}`),
    '',
    `Not offered: ${NOT_OFFERED.join(', ')}. No OAuth metadata, no read access to leads.`,
    '',
    '## API',
    '',
    `- [OpenAPI description](${l.openapi}): OpenAPI 3.1, the exact request and response schemas, headers and examples, and every rule`,
    `- [Request body JSON Schema](${l.leadSchema}): the lead body alone, JSON Schema 2020-12, for any validator`,
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
