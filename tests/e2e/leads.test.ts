/**
 * POST /api/v1/leads over real HTTP against the built server: both forms, every row of the
 * contract's order of checks, and every 201 found again by `npm run -s leads -- export`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contact, newClient, quote } from '../support/fixtures.ts';
import { postJson, rawRequest, type Reply } from '../support/http.ts';
import { exportLeads, startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
const acknowledged: string[] = [];
const leads = () => `${server.url}/api/v1/leads`;

beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1' } });
});
afterAll(async () => {
  await server?.dispose();
});

/** Posts from a client of its own and remembers every acknowledged id. */
async function submit(body: unknown, headers: Record<string, string> = {}, url = leads()): Promise<Reply> {
  const reply = await postJson(url, body, { ...newClient(), ...headers });
  if (reply.status === 201) acknowledged.push(reply.json.id);
  return reply;
}

function expectProblem(reply: Reply, status: number, code: string) {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get('content-type')).toBe('application/problem+json');
  expect(reply.headers.get('cache-control')).toBe('no-store');
  expect(reply.json.code).toBe(code);
  expect(reply.json.status).toBe(status);
  expect(reply.json.error).toBe(reply.json.detail);
  expect(reply.json.type).toBe(`http://localhost:4321/developers/errors#${code}`);
  expect(reply.json.instance).toBe(`urn:uuid:${reply.headers.get('x-request-id')}`);
  expect(typeof reply.json.resolution).toBe('string');
  expect(reply.headers.get('ratelimit-policy')).toBe('10;w=60');
}

describe('successful submissions', () => {
  it('stores a quote request and answers 201 with its receipt, never cached', async () => {
    const reply = await submit(quote());
    expect(reply.status, reply.text).toBe(201);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(reply.json).sort()).toEqual(['formType', 'id', 'receivedAt', 'reference', 'status']);
    expect(reply.json).toMatchObject({ formType: 'quote', status: 'received', reference: expect.stringMatching(/^Q-[0-9A-Z]{4}-[0-9A-Z]{2}$/) });
    expect(Math.abs(Date.parse(reply.json.receivedAt) - Date.now())).toBeLessThan(60_000);
  });

  it('stores a contact message selected by formType "support"', async () => {
    const reply = await submit(contact());
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.formType).toBe('support');
  });

  it('accepts application/json with a UTF-8 charset parameter', async () => {
    expect((await submit(quote(), { 'Content-Type': 'application/json; charset=UTF-8' })).status).toBe(201);
  });
});

describe('the order of checks, first failure wins', () => {
  it('step 2: an Authorization header is refused with 400, before the media type is looked at', async () => {
    const reply = await submit('not json', { Authorization: 'Bearer abc', 'Content-Type': 'text/plain' });
    expectProblem(reply, 400, 'authorization_not_accepted');
    expect(reply.headers.get('www-authenticate')).toBeNull();
  });

  it("step 3: a body that is not application/json gets 415, form posts included (not Astro's 403)", async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16']) {
      expectProblem(await submit('{}', { 'Content-Type': type, Origin: 'https://evil.example.com' }), 415, 'unsupported_media_type');
    }
    const reply = await rawRequest(leads(), { headers: { ...newClient(), 'Content-Length': 2 }, chunks: [Buffer.from('{}')] });
    expect(reply.status).toBe(415);
  });

  it('step 4: a body over 20,000 bytes gets 413, even when it is also malformed', async () => {
    const big = quote({ notes: 'x'.repeat(20_000) });
    expectProblem(await submit(big), 413, 'payload_too_large');
    expectProblem(await submit(`{${'x'.repeat(25_000)}`), 413, 'payload_too_large');
  });

  it('step 4: a chunked body is counted as it streams and refused past the limit', async () => {
    const chunks = Array.from({ length: 30 }, () => Buffer.alloc(1000, 0x20));
    const reply = await rawRequest(leads(), { headers: { ...newClient(), 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, chunks });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).code).toBe('payload_too_large');
  });

  it('step 5: malformed JSON and invalid UTF-8 get 400 malformed_json', async () => {
    expectProblem(await submit('{"name": "Jane",'), 400, 'malformed_json');
    expectProblem(await submit(''), 400, 'malformed_json');
    expectProblem(await submit(Uint8Array.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d])), 400, 'malformed_json');
  });

  it('step 6: consent that is not true gets 422 consent_required, listing the other field problems too', async () => {
    const reply = await submit(quote({ communicationsConsent: 'yes', email: 'nope' }));
    expectProblem(reply, 422, 'consent_required');
    expect(reply.json.errors).toEqual(
      expect.arrayContaining([
        { pointer: '#/communicationsConsent', code: 'consent_required', detail: expect.any(String) },
        { pointer: '#/email', code: 'invalid_format', detail: expect.any(String) },
      ]),
    );
    expect(reply.json.errors).toHaveLength(2);
  });

  it('step 7: every other field problem is listed with its JSON pointer', async () => {
    const reply = await submit({ formType: 'support', name: 'Jane Doe', email: 'jane@example.com', phone: '12345', message: '', extra: true });
    expectProblem(reply, 422, 'validation_failed');
    const byPointer = Object.fromEntries(reply.json.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code]));
    expect(byPointer).toEqual({ '#/phone': 'invalid_format', '#/helpWith': 'required', '#/message': 'required', '#/extra': 'unknown_field' });
  });

  it('step 7: a body that is not an object, or an unknown formType, is a validation failure', async () => {
    expectProblem(await submit('[1,2]'), 422, 'validation_failed');
    const reply = await submit(quote({ formType: 'complaint' }));
    expectProblem(reply, 422, 'validation_failed');
    expect(reply.json.errors).toEqual([{ pointer: '#/formType', code: 'not_allowed', detail: expect.any(String) }]);
  });

  it('step 8: the same Idempotency-Key and body replays the first 201 without storing again; another body gets 422', async () => {
    const body = quote();
    const key = `"${crypto.randomUUID()}"`;
    const first = await submit(body, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    const replay = await submit(body, { 'Idempotency-Key': key });
    expect(replay.status).toBe(201);
    expect(replay.json).toEqual(first.json);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expectProblem(await submit({ ...body, notes: 'changed' }, { 'Idempotency-Key': key }), 422, 'idempotency_key_reused');
    expectProblem(await submit(body, { 'Idempotency-Key': 'two words' }), 400, 'invalid_idempotency_key');
    const stored = (await exportLeads(server.databaseUrl)).filter((l) => l.id === first.json.id);
    expect(stored).toHaveLength(1);
  });

  it("step 9: the same lead within 24 hours gets 409 with the first lead's id", async () => {
    const body = contact();
    const first = await submit(body);
    expect(first.status).toBe(201);
    const again = await submit({ ...body, email: String(body.email).toUpperCase(), phone: '(503) 555-0199' });
    expectProblem(again, 409, 'duplicate_submission');
    expect(again.json.leadId).toBe(first.json.id);
  });
});

describe('problem details and logs', () => {
  it("puts the X-Request-Id of a problem into the server's log line for that request", async () => {
    const reply = await submit(quote({ email: 'broken' }));
    const id = reply.headers.get('x-request-id');
    await expect.poll(() => server.logs.find((l) => l.includes(id!))).toBeTruthy();
    const line = JSON.parse(server.logs.find((l) => l.includes(id!))!);
    expect(line).toMatchObject({ reqId: id, method: 'POST', path: '/api/v1/leads', status: 422 });
    expect(typeof line.durationMs).toBe('number');
    // ISO time (formatted once per millisecond by the logger), and the current one.
    expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(Date.parse(line.time) - Date.now())).toBeLessThan(60_000);
  });

  it('never writes a name, e-mail, phone, notes or message into the log', async () => {
    const secret = {
      name: 'Zebulon Quixote',
      email: 'zebulon.quixote@example.com',
      phone: '(212) 555-0187',
      notes: 'Hidden-notes-marker',
      message: 'Hidden-message-marker',
    };
    await submit(quote({ name: secret.name, email: secret.email, phone: secret.phone, notes: secret.notes }));
    await submit(contact({ name: secret.name, email: secret.email, message: secret.message }));
    await submit(quote({ name: secret.name, email: 'bad', notes: secret.notes }));
    await new Promise((r) => setTimeout(r, 300));
    const log = server.logs.join('\n');
    for (const value of [...Object.values(secret), '2125550187', 'Zebulon']) expect(log).not.toContain(value);
  });
});

describe('leads export', () => {
  it('prints every acknowledged lead, one JSON object per line', async () => {
    expect(acknowledged.length).toBeGreaterThan(3);
    const exported = await exportLeads(server.databaseUrl);
    const ids = new Set(exported.map((l) => l.id));
    for (const id of acknowledged) expect(ids.has(id), id).toBe(true);
    const sample = exported.find((l) => l.formType === 'quote')!;
    expect(sample).toMatchObject({
      receivedVia: '/api/v1/leads',
      phoneE164: '+15035550142',
      fields: { bedrooms: '3', communicationsConsent: true },
      consent: { communicationsConsent: true, pageUrl: 'https://www.example-cleaning.com/quote' },
    });
    expect(sample.consent).toHaveProperty('clientAddress');
    expect(sample.consent).toHaveProperty('serverTime');
  });
});
