/**
 * `/llms.txt` in the llmstxt.org layout: H1, blockquote summary, details without headings, then H2
 * sections of links and `## Optional`. Generated from the same facts as the API, so it cannot drift.
 */
import { PROBLEMS, PROBLEM_CODES } from '../problems/registry.ts';
import { FIELDS, type FieldName } from '../leads/fields.ts';
import { US_PHONE_RULE } from '../leads/phone.ts';
import { agentGuidance, FACTS, NOT_OFFERED, RATE_LIMIT_POLICY, RULES, SERVICE_NAME, USAGE_RULES, serviceLinks, type Offer } from '../service-facts.ts';
import { configuredMarker } from '../site/configured-values.ts';
import { curlExample } from './examples.ts';
import { AGENT_PRICE_NOTE, rangeWords, sizeWords, type PriceGuide } from '../prices.ts';

type Json = Record<string, any>;

// A range or a format bounds these values more tightly than their length limits do.
const SHAPED = new Set(['bedrooms', 'bathrooms', 'phone', 'consentTimestamp']);

/** One line per field of a form, required fields first: what it takes, as the validation words it, and its length limit. */
function fieldLines(doc: Json, form: 'QuoteRequest' | 'ContactMessage'): string[] {
  const schema = doc.components.schemas[form];
  const required = new Set<string>(schema.required);
  return Object.entries(schema.properties as Record<string, Json>)
    .map(([name, property]) => {
      const field = property.$ref ? doc.components.schemas[property.$ref.split('/').pop()] : property;
      const most = field.maxLength ?? (field.anyOf as Json[] | undefined)?.find((branch) => branch.maxLength)?.maxLength;
      // The form's own value, rather than the choice between the two forms that a refusal explains.
      const expects = name === 'formType' ? `"${field.const}"${required.has(name) ? '' : ', or leave it out'}` : FIELDS[name as FieldName].expects;
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
  const company = doc.info['x-company'] as { name: string; phone: string; serviceArea: string };
  const guidance = agentGuidance(offer);
  const quoted = (items: readonly string[]) => items.map((i) => `"${i}"`).join(', ');
  const lines = [
    `# ${SERVICE_NAME}`,
    '',
    `> Public, anonymous HTTP API of ${company.name}, a residential cleaning company that cleans homes in ${company.serviceArea}.`,
    '> It accepts cleaning quote requests and contact messages that a customer has explicitly asked the company to act on.',
    '> Agents may use it on behalf of a customer; nothing here reads or changes any other record.',
    '',
    'Rules for every caller, person or agent:',
    '',
    ...USAGE_RULES.map((rule) => `- ${rule}`),
    '- Never send credentials: no Authorization header, bearer token, API key, identity assertion or password. There is no registration.',
    '',
    `Submit one JSON object with \`POST ${l.leads}\` and \`Content-Type: application/json\`, at most ${FACTS.maxBodyBytes} bytes. There are two forms:`,
    '',
    `- A quote request (the default: leave \`formType\` out) asks for a price for, or a visit to, clean a home in ` +
      `${company.serviceArea}. On a quote request, \`communicationsConsent\` must be the JSON value \`true\`, and ` +
      `only because the customer said so.`,
    '- A contact message (`"formType": "support"`) is for anything else, a follow-up about an earlier lead ' +
      'included. It may also carry `communicationsConsent` (if sent, it must be `true`), `consentTimestamp` and ' +
      '`pageUrl`, kept as evidence.',
    '',
    RULES.idempotencyKey,
    RULES.retry,
    `${configuredMarker('environmentRule')} The company's own deployment is served over HTTPS only; \`GET ${l.status}\` ` +
      'says which this is (`environment`: `production` or `test`). There is no sandbox.',
    '',
    'A quote request, complete:',
    '',
    '```sh',
    curlExample(doc, 'quote'),
    '```',
    '',
    'Its fields:',
    '',
    ...fieldLines(doc, 'QuoteRequest'),
    '',
    'A contact message, complete (this one a follow-up: it quotes the reference of a quote request sent earlier):',
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
    `- \`communicationsConsent\`: ${guidance.communicationsConsent}`,
    `- \`consentTimestamp\`: ${guidance.consentTimestamp}`,
    `- \`bedrooms\`: ${guidance.bedrooms}`,
    `- \`bathrooms\`: ${guidance.bathrooms}`,
    `- \`pageUrl\`: ${guidance.pageUrl}`,
    `- \`service\`: ${guidance.service} The services offered: ${quoted(offer.services)}.`,
    ...priceLines(offer.prices, l.status),
    `- \`notes\`: ${guidance.notes}`,
    `- \`postalCode\`: ${guidance.postalCode} The ZIP codes served are listed in \`GET ${l.status}\` (\`serviceArea\`).`,
    `- \`preferredDates\`, \`frequency\`, \`preferredContact\`: ${guidance.preferredDates}`,
    `- \`helpWith\`: ${guidance.helpWith} The topics: ${quoted(offer.contactTopics)}.`,
    `- \`message\`: ${guidance.message}`,
    `- \`phone\`: ${US_PHONE_RULE} A customer without a U.S. number can call the office at ${company.phone} instead of sending a lead.`,
    "- Every field's exact rule (lengths, patterns, required fields) is in the OpenAPI description; a refusal names each field and what it expects.",
    '',
    'Success is `201 Created` with `{"id": "…", "reference": "Q-7K3M-4P", "formType": "quote", "status": ' +
      '"received", "receivedAt": "…", "whatHappensNext": "…"}`, sent only once the lead is stored. Give the customer ' +
      'the `reference`: it is what they quote when they call or write to the office about this request, and what a ' +
      'follow-up contact message quotes in `message`. Read them `whatHappensNext`: when the office will answer, as ' +
      'the company promises it.',
    RULES.duplicate,
    `Rate limit: ${FACTS.rateLimit} submissions per ${FACTS.rateLimitWindowSeconds} seconds per client ` + `(\`RateLimit-Policy: ${RATE_LIMIT_POLICY}\`).`,
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
