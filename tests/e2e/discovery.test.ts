/** The discovery documents and pages over real HTTP: media types, structure, CORS, validators. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCatalog } from '../../src/discovery/api-catalog.ts';
import { openApiDocument } from '../../src/discovery/openapi.ts';
import { PROBLEM_CODES } from '../../src/problems/registry.ts';
import { USAGE_RULES } from '../../src/service-facts.ts';
import { ENVIRONMENT_RULE, RULES } from '../../src/service-rules.ts';
import { company, offer } from '../support/fixtures.ts';
import { call } from '../support/http.ts';
import { openapi, schemaErrors } from '../support/openapi.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.dispose();
});

const BASE = 'http://localhost:4321';
const CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

describe('/.well-known/api-catalog', () => {
  it('is an RFC 9727 linkset anchored at /api/v1 with service-desc, service-doc, status and service-meta', async () => {
    const reply = await call(`${server.url}/.well-known/api-catalog`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe(CATALOG_TYPE);
    expect(reply.headers.get('link')).toBe(`<${BASE}/.well-known/api-catalog>; rel="api-catalog"`);
    const [entry] = reply.json.linkset;
    expect(reply.json.linkset).toHaveLength(1);
    expect(entry.anchor).toBe(`${BASE}/api/v1`);
    expect(entry['service-desc']).toEqual([expect.objectContaining({ href: `${BASE}/openapi.json`, type: 'application/json' })]);
    expect(entry.describedby).toEqual([expect.objectContaining({ href: `${BASE}/schemas/lead-submission.json`, type: 'application/schema+json' })]);
    expect(entry['service-doc'][0]).toMatchObject({ href: `${BASE}/api-docs`, type: 'text/html' });
    expect(entry.status[0].href).toBe(`${BASE}/api/v1`);
    expect(entry['service-meta'][0].href).toBe(`${BASE}/developers#deprecation-policy`);
    for (const links of Object.values(entry).filter(Array.isArray)) for (const link of links as Array<{ href: string }>) expect(link.href).toMatch(/^http/);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const reply = await call(`${server.url}/.well-known/api-catalog`, { method: 'HEAD' });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('');
    expect(reply.headers.get('content-type')).toBe(CATALOG_TYPE);
    expect(reply.headers.get('link')).toContain('rel="api-catalog"');
  });

  it('is built from SITE_URL', () => {
    expect(apiCatalog('https://www.example-cleaning.com').linkset[0]!.anchor).toBe('https://www.example-cleaning.com/api/v1');
  });
});

describe('/openapi.json', () => {
  it('is the bundled OpenAPI 3.1 description, served as application/json, with servers from SITE_URL', async () => {
    const reply = await call(`${server.url}/openapi.json`);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(reply.json.openapi).toBe('3.1.0');
    expect(reply.json.servers).toEqual([{ url: BASE, description: `test: ${ENVIRONMENT_RULE.test}`, 'x-internal': false }]);
    expect(Object.keys(reply.json.paths)).toEqual(expect.arrayContaining(['/api/v1', '/api/v1/leads', '/api/leads']));
    expect(reply.json.components.schemas.ProblemCode.enum).toEqual(PROBLEM_CODES);
  });

  it('rebases every example link on the configured origin', () => {
    const doc = JSON.stringify(openApiDocument('https://www.example-cleaning.com', offer(), company()));
    expect(doc).not.toContain('localhost');
    expect(doc).toContain('https://www.example-cleaning.com/developers/errors#rate_limited');
  });
});

describe('/llms.txt', () => {
  it('follows the llmstxt.org layout: H1, blockquote, details, H2 link sections, Optional last', async () => {
    const reply = await call(`${server.url}/llms.txt`);
    expect(reply.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = reply.text.split('\n');
    expect(lines[0]).toBe('# Lead Intake API');
    expect(lines.filter((l) => /^# /.test(l))).toHaveLength(1);
    expect(lines[2]).toMatch(/^> /);
    const h2 = lines.filter((l) => l.startsWith('## '));
    expect(h2.at(-1)).toBe('## Optional');
    expect(h2.length).toBeGreaterThanOrEqual(3);
    const firstH2 = lines.findIndex((l) => l.startsWith('## '));
    for (const line of lines.slice(firstH2)) if (line.startsWith('- ')) expect(line).toMatch(/^- \[[^\]]+\]\(https?:\/\/[^)]+\)(: .+)?$/);
  });

  it('states the usage rules, a complete example request and every error code', async () => {
    const text = (await call(`${server.url}/llms.txt`)).text;
    expect(text).toMatch(/explicitly asked/);
    expect(text).toMatch(/communicationsConsent/);
    expect(text).toMatch(/duplicate/);
    expect(text).toContain(`- ${USAGE_RULES[3]}`);
    expect(text).toContain(`](${BASE}/schemas/lead-submission.json)`);
    expect(text).toContain(`curl -i ${BASE}/api/v1/leads`);
    for (const code of PROBLEM_CODES) expect(text, code).toContain(`\`${code}\``);
    for (const path of ['/openapi.json', '/api-docs', '/.well-known/api-catalog', '/developers', '/developers/errors', '/terms', '/privacy'])
      expect(text).toContain(`](${BASE}${path})`);
  });

  it('gives both forms, each with a complete example and its fields, and says "on a quote request" wherever consent is required', async () => {
    const text = (await call(`${server.url}/llms.txt`)).text;
    const bodies = [...text.matchAll(/```sh\ncurl -i [^\n]*\n(?: {2}-H [^\n]*\n)* {2}-d '(\{[\s\S]*?\})'\n```/g)].map((m) => JSON.parse(m[1]!));
    expect(bodies.map((b) => b.formType ?? 'quote')).toEqual(['quote', 'support']);
    for (const body of bodies) expect(schemaErrors('LeadSubmission', body)).toEqual([]);
    // After each example, one line per field of its form, saying whether it is required.
    for (const [form, after] of [
      ['QuoteRequest', 'A quote request, complete'],
      ['ContactMessage', 'A contact message, complete'],
    ] as const) {
      const section = text.slice(text.indexOf(after));
      const required = new Set<string>(openapi.components.schemas[form].required);
      for (const field of Object.keys(openapi.components.schemas[form].properties))
        expect(section, `${form}.${field}`).toContain(`- \`${field}\` (${required.has(field) ? 'required' : 'optional'}): `);
    }
    // Every sentence that says what consent must be says on which form.
    const sentences = text.split(/(?<=\.)\s/).filter((s) => /communicationsConsent.*must be/.test(s));
    for (const sentence of sentences) expect(sentence).toMatch(/on a quote request|if sent|when a contact message carries it/i);
  });

  it('the OpenAPI description states the usage rules as every other document does', () => {
    expect(openapi.info.description).toContain(USAGE_RULES.map((rule, i) => `${i + 1}. ${rule}`).join('\n'));
  });

  it('is announced by GET /api/v1 with rel="describedby"', async () => {
    expect((await call(`${server.url}/api/v1`)).headers.get('link')).toContain(`<${BASE}/llms.txt>; rel="describedby"`);
  });
});

describe('one sentence per rule', () => {
  /** What a reader of each document reads: an HTML page's text, the description's strings, /llms.txt as it is. */
  const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);
  const pageText = (html: string) =>
    html
      .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ' ')
      .replace(/<[^>]+>/g, '')
      .replace(/&quot;|&#34;/g, '"')
      .replace(/&#39;|&#x27;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  async function documents(): Promise<Record<string, string>> {
    const text = async (path: string) => (await call(`${server.url}${path}`)).text;
    return {
      '/openapi.json': strings(JSON.parse(await text('/openapi.json'))).join('\n'),
      '/llms.txt': await text('/llms.txt'),
      '/developers': pageText(await text('/developers')),
      '/api-docs': pageText(await text('/api-docs')),
      '/terms': pageText(await text('/terms')),
      '/privacy': pageText(await text('/privacy')),
    };
  }
  const count = (text: string, part: string) => text.split(part).length - 1;

  it('each rule is stated word for word in every document an agent reads, and wherever its opening words appear the whole sentence follows', async () => {
    const docs = await documents();
    const rules = { ...RULES, environment: ENVIRONMENT_RULE.test };
    for (const [rule, sentence] of Object.entries(rules)) {
      const opening = sentence.split(' ').slice(0, 5).join(' ');
      for (const [path, text] of Object.entries(docs)) {
        if (['/openapi.json', '/llms.txt', '/developers', '/api-docs'].includes(path)) expect(count(text, sentence), `${rule} in ${path}`).toBeGreaterThan(0);
        expect(count(text, opening), `"${opening}" in ${path} is the whole ${rule} rule each time`).toBe(count(text, sentence));
      }
    }
  });

  it("the deployment's kind is the same in every document and in GET /api/v1: this one is a test deployment", async () => {
    const docs = await documents();
    expect((await call(`${server.url}/api/v1`)).json).toMatchObject({ environment: 'test', deployment: ENVIRONMENT_RULE.test });
    for (const [path, text] of Object.entries(docs)) {
      expect(text, path).not.toContain('@@configured');
      expect(text, path).not.toContain(ENVIRONMENT_RULE.production);
    }
  });
});

describe("the request body's JSON Schema", () => {
  it('is served as application/schema+json, a JSON Schema 2020-12 document whose $id is its own address on SITE_URL, linked from GET /api/v1', async () => {
    const reply = await call(`${server.url}/schemas/lead-submission.json`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/schema+json');
    expect(reply.json.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(reply.json.$id).toBe(`${BASE}/schemas/lead-submission.json`);
    expect(reply.text).not.toContain('#/components/');
    expect((await call(`${server.url}/api/v1`)).json.links.leadSchema).toBe(`${BASE}/schemas/lead-submission.json`);
  });
});

describe('public and cacheable', () => {
  for (const path of ['/.well-known/api-catalog', '/openapi.json', '/llms.txt', '/schemas/lead-submission.json']) {
    it(`${path} allows every origin, carries an ETag and answers a matching If-None-Match with 304`, async () => {
      const first = await call(`${server.url}${path}`);
      expect(first.headers.get('access-control-allow-origin')).toBe('*');
      expect(first.headers.get('cache-control')).toMatch(/max-age=\d+/);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await call(`${server.url}${path}`, { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
    });
  }
});

describe('pages', () => {
  for (const path of ['/', '/developers', '/developers/errors', '/terms', '/privacy', '/api-docs']) {
    it(`${path} is HTML with a link to the API catalog in its head`, async () => {
      const reply = await call(`${server.url}${path}`);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(reply.text).toMatch(/<link rel="api-catalog" href="http:\/\/localhost:4321\/.well-known\/api-catalog"/);
    });
  }

  it('/developers/errors has a section for every problem code, and every type URI the API sends points to one', async () => {
    const html = (await call(`${server.url}/developers/errors`)).text;
    for (const code of PROBLEM_CODES) expect(html, code).toContain(`id="${code}"`);
    const problem = await call(`${server.url}/api/unknown`);
    expect(html).toContain(`id="${new URL(problem.json.type).hash.slice(1)}"`);
  });

  it('/developers has the deprecation policy with its 365-day notice', async () => {
    const html = (await call(`${server.url}/developers`)).text;
    expect(html).toContain('id="deprecation-policy"');
    expect(html).toMatch(/365 days/);
  });

  it('an unknown page is a 404 HTML page', async () => {
    const reply = await call(`${server.url}/no-such-page`);
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});
