/**
 * Every document an agent or a customer reads about the API, as its text, built in process (no
 * build, no server): the OpenAPI description (`tests/support/openapi.ts`), /api-docs' plain
 * reference, /llms.txt, `GET /api/v1`, /developers/errors, and the pages under `content/` with
 * each component they name replaced by what it prints (its data, and the words of its own template).
 * A component the pages name that this module does not know stops the test, so that none is missed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readContent } from '../../src/content-check/read.ts';
import { loadConfig } from '../../src/config/config.ts';
import { companyTimeWords, documentedCompany } from '../../src/discovery/company-facts.ts';
import { curlExample, fieldExpects, receiptExample } from '../../src/discovery/examples.ts';
import { llmsTxt } from '../../src/discovery/llms-txt.ts';
import { plainReference } from '../../src/discovery/plain-reference.ts';
import { statusDocument } from '../../src/http/status-handler.ts';
import type { FieldName } from '../../src/leads/fields.ts';
import { AGENT_PRICE_NOTE, rangeWords } from '../../src/prices.ts';
import { PROBLEM_CODES, PROBLEMS } from '../../src/problems/registry.ts';
import { agentGuidance, FACTS, NOT_OFFERED, USAGE_RULES } from '../../src/service-facts.ts';
import { CONFIGURED, fillConfigured, type ConfiguredName } from '../../src/site/configured-values.ts';
import { companyOf, offerOf } from '../../src/site/from-content.ts';
import { BUILD_SITE_URL, openapi } from './openapi.ts';
import { ROOT } from './server.ts';

type Json = Record<string, any>;

const content = readContent(ROOT);
const company = companyOf(content.company);
/** The office's promise as the content says it: what the built site's office pages word their times by. */
export const contentPromise = company.promise;
const facts = documentedCompany(company);
const offer = offerOf(content.quoteForm, content.contactForm, company.name);
/** The deployment the documents are read for: the build's origin, a test deployment. */
export const config = loadConfig({ SITE_URL: BUILD_SITE_URL });

/** Every string of a JSON value, one per line. */
const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);

/** HTML as the text a reader sees. */
export const htmlText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;|&#34;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The words of a component's own template: its text between tags, without its `{…}` expressions. */
function templateWords(component: string): string {
  const source = readFileSync(join(ROOT, 'src/components', `${component}.astro`), 'utf8');
  let template = source.replace(/^---[\s\S]*?\n---\n/, '');
  // Expressions, innermost first.
  for (let before = ''; before !== template;) [before, template] = [template, template.replace(/\{[^{}]*\}/g, ' ')];
  return htmlText(template).replace(/\s+/g, ' ').trim();
}

/** A form's fields as `<LeadFields>` prints them: what each expects, in the validation's words. */
function leadFields(form: 'quote' | 'support'): string {
  const schema = openapi.components.schemas[form === 'quote' ? 'QuoteRequest' : 'ContactMessage'];
  return Object.keys(schema.properties)
    .filter((name) => name !== 'formType')
    .map((name) => `${name}: ${fieldExpects(name as FieldName, BUILD_SITE_URL)}.`)
    .join('\n');
}

/** What each component prints, beside the words of its template. */
const COMPONENTS: Record<string, (props: Record<string, string>) => string> = {
  Fact: (p) => FACTS[p.name as keyof typeof FACTS] ?? missing(`<Fact name="${p.name}" />`),
  Configured: (p) => CONFIGURED[p.name as ConfiguredName](config),
  Company: (p) => ({ name: facts.name, phone: facts.phone, email: company.email, area: facts.serviceArea })[p.fact!] ?? missing(`<Company fact="${p.fact}" />`),
  BaseUrl: (p) => `${BUILD_SITE_URL}${p.fact ? FACTS[p.fact as keyof typeof FACTS] : (p.path ?? '')}`,
  UsageRules: () => USAGE_RULES.join('\n'),
  NotOffered: () => NOT_OFFERED.map((item) => `No ${item}.`).join('\n'),
  CurlExample: (p) => curlExample(openapi, p.form as 'quote' | 'support'),
  ReceiptExample: () => receiptExample(openapi),
  LeadFields: (p) => leadFields(p.form as 'quote' | 'support'),
  ErrorCodes: () => PROBLEM_CODES.map((code) => `${PROBLEMS[code].status} ${code} ${PROBLEMS[code].title}`).join('\n'),
  AgentGuidance: () =>
    [
      ...Object.values(agentGuidance(offer)),
      ...offer.services.map((s) => `${s}${offer.prices?.find((p) => p.service === s) ? `: ${rangeWords(offer.prices.find((p) => p.service === s)!)}` : ''}`),
      AGENT_PRICE_NOTE,
      ...offer.contactTopics,
      companyTimeWords(company.promise),
    ].join('\n'),
};

function missing(what: string): never {
  throw new Error(`${what}: the documents test does not know what it prints`);
}

/** A page under `content/` as its reader reads it: frontmatter left out, components replaced, Markdown links as their words. */
export function pageText(file: string): string {
  const source = readFileSync(join(ROOT, 'content', file), 'utf8').replace(/^---[\s\S]*?\n---\n/, '');
  const withComponents = source.replace(/<([A-Z][A-Za-z]*)((?:\s+[a-zA-Z]+(?:="[^"]*")?)*)\s*\/>/g, (_, name: string, attrs: string) => {
    const render = COMPONENTS[name] ?? missing(`<${name} /> in content/${file}`);
    const props = Object.fromEntries([...attrs.matchAll(/([a-zA-Z]+)(?:="([^"]*)")?/g)].map((m) => [m[1]!, m[2] ?? 'true']));
    const words = name === 'Fact' || name === 'Configured' || name === 'Company' || name === 'BaseUrl' ? '' : ` ${templateWords(name)}`;
    return `${render(props)}${words}`;
  });
  if (/<[A-Z][A-Za-z]*[\s>]/.test(withComponents)) missing(`a component with children in content/${file}`);
  return htmlText(withComponents.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')).replace(/\*\*/g, '');
}

/** Every published document's text, by its path, as a test deployment publishes it. */
export function documents(): Record<string, string> {
  const fill = (text: string) => fillConfigured(text, config);
  const status = statusDocument(config, offer, company.serviceArea, true, company.promise);
  return {
    '/openapi.json': fill(strings(openapi).join('\n')),
    '/api-docs': fill(htmlText(plainReference(openapi))),
    '/llms.txt': fill(llmsTxt(openapi, offer)),
    '/api/v1': strings(status).join('\n'),
    '/developers': pageText('developers.mdx'),
    '/developers/errors': PROBLEM_CODES.flatMap((code) => [PROBLEMS[code].title, PROBLEMS[code].description, PROBLEMS[code].resolution]).join('\n'),
    '/terms': pageText('terms.mdx'),
    '/privacy': pageText('privacy.mdx'),
  };
}

export type { Json };
