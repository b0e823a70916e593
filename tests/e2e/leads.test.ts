/**
 * POST /api/v1/leads over real HTTP against the built server, for what needs a socket or the
 * server's own log: a body with no media type on the wire, a chunked body refused as it streams,
 * the request's log line, and `npm run -s leads -- export`. The contract's checks are in process
 * (`tests/http/leads.test.ts`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contact, newClient, quote, STORED_QUOTE } from '../support/fixtures.ts';
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

describe('what needs a socket', () => {
  it('a body sent with no Content-Type at all gets 415', async () => {
    const reply = await rawRequest(leads(), { headers: { ...newClient(), 'Content-Length': 2 }, chunks: [Buffer.from('{}')] });
    expect(reply.status).toBe(415);
  });

  it('step 4: a chunked body is counted as it streams and refused past the limit', async () => {
    const chunks = Array.from({ length: 30 }, () => Buffer.alloc(1000, 0x20));
    const reply = await rawRequest(leads(), { headers: { ...newClient(), 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, chunks });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).code).toBe('payload_too_large');
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
    for (const body of [quote(), contact(), quote()]) await submit(body);
    expect(acknowledged.length).toBeGreaterThan(3);
    const exported = await exportLeads(server.databaseUrl);
    const ids = new Set(exported.map((l) => l.id));
    for (const id of acknowledged) expect(ids.has(id), id).toBe(true);
    const sample = exported.find((l) => l.id === acknowledged.at(-1))!;
    expect(sample).toMatchObject(STORED_QUOTE);
    expect(sample.consent).toHaveProperty('clientAddress');
    expect(sample.consent).toHaveProperty('serverTime');
  });
});
