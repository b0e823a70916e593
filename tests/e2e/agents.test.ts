/**
 * What an agent reads, held to what the server does: every field's published schema, and the
 * `Idempotency-Key` header's, against the server's verdict on values drawn from it and from just
 * outside it; the examples in the served documents, submitted as published, twice each; the
 * natural first try of an agent in a hurry; the services on offer in every document; /api-docs
 * without a browser; /robots.txt.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contact, newClient, quote } from '../support/fixtures.ts';
import { call, postJson } from '../support/http.ts';
import { headerErrors, openapi, schemaErrors } from '../support/openapi.ts';
import { exportLeads, startServer, type RunningServer } from '../support/server.ts';
import { RULES } from '../../src/service-rules.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1' } });
});
afterAll(async () => {
  await server?.dispose();
});

const schemas = openapi.components.schemas;
/** A field's published schema, through a shared component's $ref. */
const fieldSchema = (form: 'QuoteRequest' | 'ContactMessage', field: string) => {
  const property = schemas[form].properties[field];
  return property.$ref ? schemas[property.$ref.split('/').pop()] : property;
};
/** The rule of a field's free text: the field's own, or its `anyOf` branch beside the enumerated values. */
const freeText = (schema: Record<string, any>) => ({ ...schema, ...schema.anyOf?.find((branch: Record<string, any>) => branch.pattern) });

/** The server's verdict on `body`: accepted (stored, or a duplicate of a stored one), or the fields its refusal points at. */
async function serverVerdict(body: Record<string, unknown>): Promise<{ accepted: boolean; pointers: string[]; codes: string[] }> {
  const reply = await postJson(`${server.url}/api/v1/leads`, body, newClient());
  if (reply.status === 201 || reply.status === 409) return { accepted: true, pointers: [], codes: [] };
  expect([400, 422], reply.text).toContain(reply.status);
  const errors = (reply.json.errors ?? []) as Array<{ pointer: string; code: string }>;
  return { accepted: false, pointers: errors.map((e) => e.pointer), codes: errors.map((e) => e.code) };
}

/** Values of a string field: drawn from its pattern, and just outside it (too long, empty, a control character, another type). */
function candidates(schema: Record<string, any>): fc.Arbitrary<unknown> {
  const pattern = new RegExp(schema.pattern, 'u');
  const inside = fc.stringMatching(pattern, { size: 'small' });
  const longest = schema.maxLength as number | undefined;
  return fc.oneof(
    { weight: 5, arbitrary: inside },
    inside.map((s) => `${s}\u0007`),
    inside.map((s) => `\u202e${s}`),
    fc.constantFrom('', '   ', 7, true, null, ['x']),
    fc.string({ maxLength: 40 }),
    ...(longest === undefined ? [] : [fc.constantFrom('x'.repeat(longest), 'x'.repeat(longest + 1), `${'x'.repeat(longest - 1)} y`)]),
  );
}

/**
 * Rules the published schema states in words, not in its keywords: where they apply, only one
 * direction holds (what the server accepts, the schema accepts).
 */
const UNSTATED: Record<string, (value: unknown) => boolean> = {
  // The area code must be in service; the pattern allows any that starts with 2 to 9.
  phone: () => true,
  // Not more than 5 minutes ahead.
  consentTimestamp: (v) => typeof v === 'string' && Date.parse(v) > Date.now(),
  // URL parsing decides what the pattern leaves open.
  pageUrl: () => true,
};

const QUOTE_FIELDS = ['name', 'phone', 'email', 'bedrooms', 'bathrooms', 'service', 'notes', 'consentTimestamp', 'pageUrl'];
const CONTACT_FIELDS = ['name', 'phone', 'email', 'helpWith', 'message', 'consentTimestamp', 'pageUrl'];

describe('the published schema of every field agrees with the server', () => {
  for (const [form, fields, base] of [
    ['QuoteRequest', QUOTE_FIELDS, quote],
    ['ContactMessage', CONTACT_FIELDS, contact],
  ] as const) {
    for (const field of fields) {
      it(`${form}.${field}: accepted by one means accepted by the other, and each refusal points at ${field}`, async () => {
        const schema = freeText(fieldSchema(form, field));
        await fc.assert(
          fc.asyncProperty(candidates(schema), async (value) => {
            const body = { ...base(), [field]: value };
            const published = schemaErrors('LeadSubmission', body).length === 0;
            const verdict = await serverVerdict(body);
            if (!verdict.accepted) expect(verdict.pointers).toEqual([`#/${field}`]);
            if (verdict.accepted) expect(published, `the server accepted ${JSON.stringify(value)}, the schema refuses it`).toBe(true);
            const oneWay = UNSTATED[field]?.(value) ?? false;
            if (!oneWay)
              expect(verdict.accepted, `the schema ${published ? 'accepts' : 'refuses'} ${JSON.stringify(value)}, the server does not agree`).toBe(published);
          }),
          { numRuns: 40 },
        );
      });
    }
  }

  it("phone numbers written as the pattern says, with an area code in service, are accepted; the rest of the pattern's outside is refused", async () => {
    const written = fc
      .tuple(
        fc.constantFrom('', '+1 ', '1-', '+1', '1 '),
        fc.constantFrom('503', '(206)', '212', '(415)', '617'),
        fc.constantFrom(' ', '-', '.', ''),
        fc.integer({ min: 200, max: 999 }),
        fc.constantFrom(' ', '-', '.', ''),
        fc.integer({ min: 0, max: 9999 }),
      )
      .map(([prefix, area, a, exchange, b, line]) => `${prefix}${area}${a}${exchange}${b}${String(line).padStart(4, '0')}`);
    await fc.assert(
      fc.asyncProperty(written, async (phone) => {
        const body = quote({ phone });
        expect(schemaErrors('LeadSubmission', body)).toEqual([]);
        expect((await serverVerdict(body)).accepted, phone).toBe(true);
      }),
      { numRuns: 40 },
    );
    for (const phone of ['(123) 456-7890', '503-155-0142', '503-555-014', '1-800-FLOWERS', '503/555-0142', '44 20 7946 0958']) {
      expect(schemaErrors('LeadSubmission', quote({ phone })), phone).not.toEqual([]);
      expect(await serverVerdict(quote({ phone })), phone).toEqual({ accepted: false, pointers: ['#/phone'], codes: ['invalid_format'] });
    }
  });

  it('page addresses a browser would send are accepted; other schemes are refused by both', async () => {
    await fc.assert(
      fc.asyncProperty(fc.webUrl({ withQueryParameters: true, withFragments: true }), async (pageUrl) => {
        const body = quote({ pageUrl });
        expect(schemaErrors('LeadSubmission', body), pageUrl).toEqual([]);
        expect((await serverVerdict(body)).accepted, pageUrl).toBe(true);
      }),
      { numRuns: 30 },
    );
    for (const pageUrl of ['ftp://example.com/quote', 'www.example-cleaning.com/quote', '/quote', 'javascript:alert(1)']) {
      expect(schemaErrors('LeadSubmission', quote({ pageUrl })), pageUrl).not.toEqual([]);
      expect((await serverVerdict(quote({ pageUrl }))).accepted, pageUrl).toBe(false);
    }
  });

  it('formType and communicationsConsent: the constants the schema publishes, and nothing else, on both forms', async () => {
    for (const formType of ['quote', undefined, 'support', 'sales', 'Quote', 1]) {
      const body = quote({ formType });
      const published = schemaErrors('LeadSubmission', body).length === 0;
      expect((await serverVerdict(body)).accepted, String(formType)).toBe(published);
    }
    for (const communicationsConsent of [true, false, 'true', 1, null, undefined]) {
      for (const body of [quote({ communicationsConsent }), contact({ communicationsConsent })]) {
        const published = schemaErrors('LeadSubmission', body).length === 0;
        expect((await serverVerdict(body)).accepted, `${String(body.formType)}: ${String(communicationsConsent)}`).toBe(published);
      }
    }
    // Required on a quote request, optional on a contact message.
    expect(schemaErrors('LeadSubmission', quote({ communicationsConsent: undefined }))).not.toEqual([]);
    expect(schemaErrors('LeadSubmission', contact({ communicationsConsent: undefined }))).toEqual([]);
  });

  it('the services and topics the forms offer are the enumerated values of service and helpWith, and each is accepted', async () => {
    const services = fieldSchema('QuoteRequest', 'service').anyOf[0].enum as string[];
    const topics = fieldSchema('ContactMessage', 'helpWith').anyOf[0].enum as string[];
    expect(services.length).toBeGreaterThan(0);
    expect(topics.length).toBeGreaterThan(0);
    for (const service of services) expect(await serverVerdict(quote({ service })), service).toMatchObject({ accepted: true });
    for (const helpWith of topics) expect(await serverVerdict(contact({ helpWith })), helpWith).toMatchObject({ accepted: true });
    // Free text stays free: words of the customer's own are accepted by both.
    const own = quote({ service: 'Clean the garage, please' });
    expect(schemaErrors('LeadSubmission', own)).toEqual([]);
    expect((await serverVerdict(own)).accepted).toBe(true);
  });
});

describe('the Idempotency-Key header: the published schema accepts what the server accepts', () => {
  const schema = openapi.components.parameters.IdempotencyKey.schema;
  /** The server's verdict on a key sent with a valid lead: accepted (stored, or the key's earlier use), or refused as malformed. */
  async function keyAccepted(key: string): Promise<boolean> {
    const reply = await postJson(`${server.url}/api/v1/leads`, quote(), { ...newClient(), 'Idempotency-Key': key });
    if (reply.status === 400) expect(reply.json.code, reply.text).toBe('invalid_idempotency_key');
    else expect([201, 422], reply.text).toContain(reply.status);
    return reply.status !== 400;
  }

  it('generated keys and near misses get the same verdict from both', async () => {
    const inside = fc.stringMatching(new RegExp(schema.pattern), { size: 'medium' });
    const keys = fc
      .oneof(
        { weight: 4, arbitrary: inside },
        inside.map((k) => `${k},x`),
        inside.map((k) => `${k} x`),
        inside.map((k) => `"${k}`),
        inside.map((k) => `${k}${'x'.repeat(255)}`),
        fc.constantFrom('""', '"', 'a"b', '"a"b"', '"a\\"', '"a\\b"', '"\u00e9"', 'x'.repeat(256), `"${'x'.repeat(256)}"`),
        fc.string({ unit: fc.constantFrom('a', ' ', '"', '\\', ',', '~', '(', '9'), minLength: 1, maxLength: 8 }),
        // HTTP drops white space around a header's value before either side sees it.
      )
      .filter((key) => key.length > 0 && key === key.trim());
    await fc.assert(
      fc.asyncProperty(keys, async (key) => {
        const published = headerErrors('Idempotency-Key', key).length === 0;
        expect(await keyAccepted(key), `the schema ${published ? 'accepts' : 'refuses'} ${JSON.stringify(key)}, the server does not agree`).toBe(published);
      }),
      { numRuns: 80 },
    );
  });

  it('the limits: 255 characters, counted once unescaped inside quotes', async () => {
    for (const [key, accepted] of [
      ['x'.repeat(255), true],
      ['x'.repeat(256), false],
      [`"${'x'.repeat(255)}"`, true],
      [`"${'\\"'.repeat(255)}"`, true],
      [`"${'\\"'.repeat(256)}"`, false],
      ['""', false],
    ] as const) {
      expect(headerErrors('Idempotency-Key', key).length === 0, key.slice(0, 20)).toBe(accepted);
      expect(await keyAccepted(key), key.slice(0, 20)).toBe(accepted);
    }
  });
});

describe("an agent's natural first try", () => {
  it('a contact message that carries consent and its time is stored, and the export keeps them as evidence', async () => {
    const body = contact({ communicationsConsent: true, consentTimestamp: '2026-11-20T17:03:00Z', pageUrl: 'https://www.example-cleaning.com/contact' });
    expect(schemaErrors('LeadSubmission', body)).toEqual([]);
    const reply = await postJson(`${server.url}/api/v1/leads`, body, newClient());
    expect(reply.status, reply.text).toBe(201);
    const stored = (await exportLeads(server.databaseUrl)).find((lead) => lead.id === reply.json.id);
    expect(stored).toMatchObject({
      formType: 'support',
      fields: { communicationsConsent: true, consentTimestamp: '2026-11-20T17:03:00Z', pageUrl: 'https://www.example-cleaning.com/contact' },
      consent: { channel: 'api', communicationsConsent: true, consentTimestamp: '2026-11-20T17:03:00Z', pageUrl: 'https://www.example-cleaning.com/contact' },
    });
  });

  it('a contact message with communicationsConsent false is refused with words that say what to do', async () => {
    const reply = await postJson(`${server.url}/api/v1/leads`, contact({ communicationsConsent: false }), newClient());
    expect(reply.status).toBe(422);
    expect(reply.json.code).toBe('consent_required');
    expect(reply.json.errors).toEqual([{ pointer: '#/communicationsConsent', code: 'consent_required', detail: expect.stringMatching(/true or left out$/) }]);
    expect(reply.json.resolution).toMatch(/only if they agree send the lead again, corrected, with communicationsConsent: true and a new Idempotency-Key/);
  });

  it('a member the form does not have is to be removed, and the corrected lead sent with a new key', async () => {
    const reply = await postJson(`${server.url}/api/v1/leads`, quote({ squareFeet: '1400' }), newClient());
    expect(reply.status).toBe(422);
    expect(reply.json.errors[0]).toMatchObject({ pointer: '#/squareFeet', code: 'unknown_field', detail: expect.stringMatching(/: remove it \(.* notes/) });
    expect(reply.json.resolution).toMatch(/^Remove each member .* unknown_field.* send the corrected lead with a new Idempotency-Key\.$/);
  });
});

/** The curl commands of a text, as published: each runs from `curl` to the end of its `-d '…'` body. */
function curlCommands(text: string): string[] {
  return [...text.matchAll(/curl -i [\s\S]*?-d '[\s\S]*?'(?=\n|$|<)/g)].map((m) => m[0]);
}
const unescapeHtml = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');

describe('the examples agents copy', () => {
  it('are accepted as published, twice each in a row (a repeat is a replay, never a refusal)', async () => {
    const llms = (await call(`${server.url}/llms.txt`)).text;
    const developers = unescapeHtml((await call(`${server.url}/developers`)).text);
    const commands = [...curlCommands(llms), ...curlCommands(developers)];
    // Both forms in /llms.txt, and both in /developers.
    expect(commands.length).toBe(4);
    const keys = commands.map((c) => /Idempotency-Key: "([^"]+)"/.exec(c)![1]);
    // The quote example and the contact example each have a key of their own.
    expect(new Set(keys).size).toBe(2);
    for (const command of commands) {
      for (const attempt of [1, 2]) {
        // Sent as published to SITE_URL's origin, which curl is told to reach at the test server's port.
        const { stdout } = await promisify(execFile)('sh', [
          '-c',
          `${command} -s -o /dev/null -w '%{http_code}' --connect-to localhost:4321:127.0.0.1:${server.port} -H 'X-Forwarded-For: ${newClient()['X-Forwarded-For']}'`,
        ]);
        expect(stdout, `attempt ${attempt} of:\n${command}`).toBe('201');
      }
    }
    // The OpenAPI description's request examples, with the key each one's description names.
    for (const name of ['QuoteRequest', 'ContactMessage']) {
      const example = openapi.components.examples[name];
      const key = /Idempotency-Key: "([^"]+)"/.exec(example.description)![1]!;
      for (const attempt of [1, 2]) {
        const reply = await postJson(`${server.url}/api/v1/leads`, example.value, { ...newClient(), 'Idempotency-Key': `"${key}"` });
        expect(reply.status, `${name}, attempt ${attempt}: ${reply.text}`).toBe(201);
      }
    }
    expect(openapi.components.parameters.IdempotencyKey.description).toContain(RULES.idempotencyKey);
  });
});

describe('what the company offers, in every document an agent reads', () => {
  it("lists the quote form's services and the contact form's topics, with the same guidance, in the description, /llms.txt, /developers and GET /api/v1", async () => {
    const services: string[] = fieldSchema('QuoteRequest', 'service').anyOf[0].enum;
    const topics: string[] = fieldSchema('ContactMessage', 'helpWith').anyOf[0].enum;
    const quoteForm = (await call(`${server.url}/quote`)).text;
    const contactForm = (await call(`${server.url}/contact`)).text;
    for (const s of services) expect(quoteForm).toContain(`>${s.replace('&', '&amp;')}</option>`);
    for (const t of topics) expect(contactForm).toContain(`>${t}</option>`);

    const status = (await call(`${server.url}/api/v1`)).json;
    expect(status.services).toEqual(services);
    expect(status.contactTopics).toEqual(topics);
    const llms = (await call(`${server.url}/llms.txt`)).text;
    const developers = unescapeHtml((await call(`${server.url}/developers`)).text);
    for (const s of [...services, ...topics]) {
      expect(llms).toContain(`"${s}"`);
      expect(developers).toContain(`<code>${s}</code>`);
    }
    for (const [field, guidance] of Object.entries(status.guidance as Record<string, string>)) {
      expect(llms, field).toContain(guidance);
      expect(developers, field).toContain(guidance);
    }
    expect(status.guidance.consentTimestamp).toBe(RULES.consentTimestamp);
    expect(status.guidance.pageUrl).toMatch(/Leave it out when there is no page/);
    expect(status.guidance.communicationsConsent).toContain('may call me, text me and e-mail me about this request');
    expect(fieldSchema('QuoteRequest', 'consentTimestamp').description).toContain(status.guidance.consentTimestamp);
    expect(schemas.LeadSubmission.description).toContain(status.guidance.formType);
  });
});

describe('/api-docs without a browser', () => {
  it('holds every operation, every field and every problem code in the HTML it serves', async () => {
    const reply = await call(`${server.url}/api-docs`);
    expect(reply.status).toBe(200);
    const plain = /<main class="plain-reference">([\s\S]*?)<\/main>/.exec(reply.text)?.[1] ?? '';
    const text = unescapeHtml(plain.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');
    for (const [path, item] of Object.entries(openapi.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item).filter((m) => ['get', 'post'].includes(m))) expect(text).toContain(`${method.toUpperCase()} ${path}`);
    }
    for (const form of ['QuoteRequest', 'ContactMessage'] as const) {
      for (const field of Object.keys(schemas[form].properties)) expect(text).toMatch(new RegExp(`\\b${field}\\b`));
    }
    for (const code of schemas.ProblemCode.enum as string[]) expect(text).toContain(code);
    expect(text).toContain(fieldSchema('QuoteRequest', 'bathrooms').pattern);
  });
});

describe('/robots.txt', () => {
  it("is served as text with the discovery documents' caching, allows the site and points agents to the documents", async () => {
    const reply = await call(`${server.url}/robots.txt`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(reply.headers.get('cache-control')).toBe('public, max-age=300');
    expect(reply.headers.get('etag')).toBeTruthy();
    expect(reply.text).toMatch(/^User-agent: \*\nAllow: \/$/m);
    for (const document of ['/llms.txt', '/.well-known/api-catalog', '/openapi.json']) expect(reply.text).toContain(`http://localhost:4321${document}`);
    expect(reply.text).not.toMatch(/Disallow: \/(?!api\/)/);
  });
});
