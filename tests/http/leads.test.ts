/**
 * POST /api/v1/leads in process, through the front door and the route table the server uses:
 * both forms, every row of the contract's order of checks, and every 201 found again in the store.
 * (What needs a socket, a lying or chunked body, and the request's log line, is in `tests/e2e/leads.test.ts`.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadRecord } from '../../src/leads/lead.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { contact, newClient, quote, STORED_QUOTE } from '../support/fixtures.ts';
import { expectProblem, postJson, type Reply } from '../support/in-process.ts';

let app: TestApp;
const acknowledged: string[] = [];

beforeAll(async () => {
  app = await testApp({ env: { TRUST_PROXY: '127.0.0.1, ::1' } });
});
afterAll(() => app?.dispose());

/** Posts from a client of its own and remembers every acknowledged id. */
async function submit(body: unknown, headers: Record<string, string> = {}, path = '/api/v1/leads'): Promise<Reply> {
  const reply = await postJson(app, path, body, { ...newClient(), ...headers });
  if (reply.status === 201) acknowledged.push(reply.json.id);
  return reply;
}

/** Every stored lead, as the export reads them. */
async function exported(): Promise<LeadRecord[]> {
  const leads: LeadRecord[] = [];
  for await (const lead of app.store.exportLeads()) leads.push(lead);
  return leads;
}

describe('successful submissions', () => {
  it('stores a quote request and answers 201 with its receipt, never cached', async () => {
    const reply = await submit(quote());
    expect(reply.status, reply.text).toBe(201);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(reply.json).sort()).toEqual(['formType', 'id', 'receivedAt', 'reference', 'status', 'whatHappensNext']);
    expect(reply.json.whatHappensNext).toMatch(
      /^Example Cleaning Co\. answers every request within one working day: expect to hear from the office by 6 pm on \w+day, \w+ \d+ at the latest/,
    );
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

describe('where and when (optional members of a quote request)', () => {
  /** A date `n` days after today where the company is (Los Angeles). */
  const inDays = (n: number) => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());
    return new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  };

  it('keeps them, and says the home is in the service area', async () => {
    const when = { postalCode: '97201-1234', preferredDates: [inDays(3), inDays(1)], frequency: 'every-two-weeks', preferredContact: 'text' };
    const reply = await submit(quote({ name: 'Where And When', ...when }));
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.inServiceArea).toBe(true);
    expect(reply.json.whatHappensNext).not.toContain('outside');
    const stored = (await exported()).find((l) => l.id === reply.json.id)!;
    expect(stored.fields).toMatchObject(when);
    expect(stored.inServiceArea).toBe(true);
  });

  it('takes a home outside the area, and says so in the receipt, its replay and a duplicate', async () => {
    const body = quote({ name: 'Far Away', postalCode: '10001' });
    const key = { 'Idempotency-Key': crypto.randomUUID() };
    const reply = await submit(body, key);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.inServiceArea).toBe(false);
    expect(reply.json.whatHappensNext).toContain('the home is outside the area it usually serves, so the office will say whether it can come');
    const replayed = await submit(body, key);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.json).toEqual(reply.json);
    const duplicate = await submit(body);
    expectProblem(duplicate, 409, 'duplicate_submission');
    expect(duplicate.json.whatHappensNext).toContain('outside the area');
  });

  it('says nothing of the area when no ZIP code was sent, and the deprecated path takes the members too', async () => {
    const without = await submit(quote({ name: 'No Zip' }));
    expect(without.json).not.toHaveProperty('inServiceArea');
    const alias = await submit(quote({ name: 'Old Path', postalCode: '98660', frequency: 'monthly' }), {}, '/api/leads');
    expect(alias.status, alias.text).toBe(201);
    expect(alias.json.inServiceArea).toBe(true);
  });

  it('refuses a malformed ZIP code, a date outside the window and a contact message with them, each pointed at', async () => {
    const reply = await submit(quote({ postalCode: '9720', preferredDates: [inDays(-1), inDays(121)], frequency: 'sometimes', preferredContact: 'fax' }));
    expectProblem(reply, 422, 'validation_failed');
    expect(reply.json.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(
      ['#/frequency', '#/postalCode', '#/preferredContact', '#/preferredDates/0', '#/preferredDates/1'].sort(),
    );
    expect(reply.json.errors.find((e: { pointer: string }) => e.pointer === '#/preferredDates/1').detail).toMatch(
      /^preferredDates\/1 must be a date from today, \d{4}-\d\d-\d\d, to /,
    );
    const contactWithZip = await submit(contact({ postalCode: '97201' }));
    expect(contactWithZip.json.errors).toEqual([expect.objectContaining({ pointer: '#/postalCode', code: 'unknown_field' })]);
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
    expectProblem(await submit('{}', { 'Content-Type': '' }), 415, 'unsupported_media_type');
  });

  it('step 4: a body over 20,000 bytes gets 413, even when it is also malformed', async () => {
    const big = quote({ notes: 'x'.repeat(20_000) });
    expectProblem(await submit(big), 413, 'payload_too_large');
    expectProblem(await submit(`{${'x'.repeat(25_000)}`), 413, 'payload_too_large');
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

  it('step 7: a list over its length is one too_long at the list, its items unchecked; a 422 lists at most 50 problems and counts the rest', async () => {
    // 18 KB of zeros: one problem each, not 9,001.
    for (const [list, words] of [
      ['allowedContact', 'allowedContact must list at most 3 ways'],
      ['preferredDates', 'preferredDates must list at most 3 dates'],
    ] as const) {
      const reply = await submit(quote({ [list]: Array(9000).fill(0), email: 'nope' }));
      expectProblem(reply, 422, 'validation_failed');
      expect(reply.json.errors).toEqual([
        { pointer: '#/email', code: 'invalid_format', detail: expect.any(String) },
        { pointer: `#/${list}`, code: 'too_long', detail: words },
      ]);
      expect(reply.json).not.toHaveProperty('errorsOmitted');
      expect(reply.text.length).toBeLessThan(3000);
    }
    // A list within its length still has its items checked.
    const within = await submit(quote({ allowedContact: ['call', 0] }));
    expect(within.json.errors).toEqual([expect.objectContaining({ pointer: '#/allowedContact/1', code: 'invalid_format' })]);
    // A contact message's lists (a visit to move, the customer's limits) are held to the same lengths.
    const support = await submit(contact({ preferredDates: Array(9000).fill(0) }));
    expect(support.json.errors).toEqual([expect.objectContaining({ pointer: '#/preferredDates', code: 'too_long' })]);

    // 1,500 members the form does not have (13 KB), and consent missing: the consent first, 50 listed, the rest counted.
    const extra = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`x${i}`, 0]));
    const many = await submit({ ...quote({ communicationsConsent: false }), ...extra });
    expectProblem(many, 422, 'consent_required');
    expect(many.json.errors).toHaveLength(50);
    expect(many.json.errors[0]).toMatchObject({ pointer: '#/communicationsConsent', code: 'consent_required' });
    expect(many.json.errorsOmitted).toBe(1451);
    expect(many.json.detail).toBe(
      'communicationsConsent must be true; 1500 other field problems also found: errors lists the first 50, and errorsOmitted counts the other 1451.',
    );
    const unknown = await submit({ ...quote(), ...extra });
    expectProblem(unknown, 422, 'validation_failed');
    expect(unknown.json).toMatchObject({
      errorsOmitted: 1450,
      detail: '1500 field problems found; errors lists the first 50, and errorsOmitted counts the other 1450.',
    });
    expect(unknown.json.errors.at(-1)).toEqual({ pointer: '#/x49', code: 'unknown_field', detail: expect.stringMatching(/^x49 is not a field/) });
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
    const stored = (await exported()).filter((l) => l.id === first.json.id);
    expect(stored).toHaveLength(1);
  });

  it("step 9: the same lead within 24 hours gets 409 with the first lead's id", async () => {
    const body = contact();
    const first = await submit(body);
    expect(first.status).toBe(201);
    const again = await submit({ ...body, email: String(body.email).toUpperCase(), phone: '(503) 555-0199' });
    expectProblem(again, 409, 'duplicate_submission');
    expect(again.json.leadId).toBe(first.json.id);
    // The same reference and the same next step as the first lead's receipt.
    expect(again.json.reference).toBe(first.json.reference);
    expect(again.json.whatHappensNext).toBe(first.json.whatHappensNext);
  });
});

describe('what is stored', () => {
  it('holds every acknowledged lead, with its fields and its consent evidence', async () => {
    expect(acknowledged.length).toBeGreaterThan(3);
    const stored = await exported();
    const ids = new Set(stored.map((l) => l.id));
    for (const id of acknowledged) expect(ids.has(id), id).toBe(true);
    const sample = stored.find((l) => l.formType === 'quote')!;
    expect(sample).toMatchObject(STORED_QUOTE);
    expect(sample.consent).toHaveProperty('clientAddress');
    expect(sample.consent).toHaveProperty('serverTime');
  });
});
