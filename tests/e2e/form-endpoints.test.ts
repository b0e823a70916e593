/**
 * The web forms' endpoints (`/_actions/<name>`, and the form POST to the page with `?_action=`)
 * sent what hostile and careless callers send: each bad body gets the status the API gives the
 * same bytes, in a sentence, with the page's security headers and `Cache-Control: no-store`, one
 * info-level log line and no stack; each counts against the client's budget; another site's
 * submission is refused and stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClient } from '../support/fixtures.ts';
import { call, rawRequest } from '../support/http.ts';
import { exchange, logLinesOf } from '../support/raw-http.ts';
import { exportLeads, startServer, type RunningServer } from '../support/server.ts';

/** The site's origin as configured: not the origin of the build (`http://localhost:4321`). */
const SITE = 'http://www.example-cleaning.com';
const MIN_FILL_MS = 3_000;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', SITE_URL: SITE } });
});
afterAll(() => server?.dispose());

const ENDPOINTS = ['/_actions/submitQuote', '/quote?_action=submitQuote', '/_actions/submitContact', '/contact?_action=submitContact'];

/** Checks an answer to a bad body: status, a sentence, headers, and one info-level log line with no stack. */
async function expectRefusal(reply: { status: number; headers: Record<string, string | string[] | undefined>; body: string }, status: number, words: RegExp) {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(reply.body).toMatch(words);
  expect(reply.body).toMatch(/Nothing was sent|Nothing was saved/);
  expect(reply.headers['cache-control']).toBe('no-store');
  expect(reply.headers['x-content-type-options']).toBe('nosniff');
  expect(reply.headers['content-security-policy']).toBeDefined();
  expect(reply.headers['ratelimit-policy']).toBe('10;w=60');
  const id = reply.headers['x-request-id'] as string;
  // The request's line is written once the answer is out.
  for (let i = 0; i < 3_000 && logLinesOf(server.logs, id).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  const lines = logLinesOf(server.logs, id);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ level: 30, msg: 'request', status });
  expect(server.logs.filter((l) => /SyntaxError|\[ERROR\]|"level":50|\n\s+at /.test(l))).toEqual([]);
}

const post = (path: string, headers: Record<string, string | number>, body?: Buffer | string, client = newClient()) =>
  rawRequest(`${server.url}${path}`, { headers: { Origin: SITE, ...client, ...headers }, chunks: body === undefined ? [] : [Buffer.from(body)] });

describe.each(ENDPOINTS)('POST %s with a body no form sends', (path) => {
  it('a truncated JSON body: 415, the form takes form data only', async () => {
    await expectRefusal(await post(path, { 'Content-Type': 'application/json' }, '{"name":'), 415, /only takes the company's own quote and contact forms/);
  });

  it('text/plain: 415', async () => {
    await expectRefusal(await post(path, { 'Content-Type': 'text/plain' }, 'name=Jane'), 415, /only takes/);
  });

  it('a truncated multipart body: 400', async () => {
    const body = '--x1\r\nContent-Disposition: form-data; name="name"\r\n\r\nJane Do';
    await expectRefusal(await post(path, { 'Content-Type': 'multipart/form-data; boundary=x1' }, body), 400, /did not arrive complete/);
  });

  it('a 70 KB urlencoded body: 413', async () => {
    await expectRefusal(
      await post(path, { 'Content-Type': 'application/x-www-form-urlencoded' }, `notes=${'a'.repeat(70_000)}`),
      413,
      /longer than the form accepts/,
    );
  });

  it('a 10 MB chunked body: 413, without reading it all', async () => {
    const chunk = Buffer.from(`notes=${'b'.repeat(64 * 1024)}`);
    const reply = await rawRequest(`${server.url}${path}`, {
      headers: { Origin: SITE, ...newClient(), 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' },
      chunks: Array(160).fill(chunk),
    });
    if (reply.status !== 0) await expectRefusal(reply, 413, /longer than the form accepts/);
    else expect.fail('the connection was reset before the answer');
  });
});

describe('POST /_actions/submitQuote whose transport breaks', () => {
  const head = (extra: string) =>
    `POST /_actions/submitQuote HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${SITE}\r\nX-Forwarded-For: ${newClient()['X-Forwarded-For']}\r\nContent-Type: application/x-www-form-urlencoded\r\n${extra}\r\n`;

  // Each counts against a fresh client's budget: the answer says one of its ten is spent.
  it('an invalid chunk size: 400 in words, no stack in the log, one of the budget spent', async () => {
    const { responses } = await exchange(server.port, `${head('Transfer-Encoding: chunked\r\n')}zz\r\nname=Jane\r\n0\r\n\r\n`);
    await expectRefusal(responses[0]!, 400, /did not arrive complete/);
    expect(responses[0]!.headers['ratelimit-remaining']).toBe('9');
  });

  it('a body that stops arriving: 408 in words, one of the budget spent', async () => {
    const { responses } = await exchange(server.port, `${head('Content-Length: 100\r\n')}name=Ja`, { waitMs: 60_000 });
    await expectRefusal(responses[0]!, 408, /stopped arriving/);
    expect(responses[0]!.headers['ratelimit-remaining']).toBe('9');
  });
});

describe('the form endpoints and the rate limit', () => {
  it('every bad body counts: the 11th in a minute is refused with 429 and Retry-After', async () => {
    const client = newClient();
    for (let i = 0; i < 10; i++) expect((await post(ENDPOINTS[i % 4]!, { 'Content-Type': 'text/plain' }, 'x', client)).status).toBe(415);
    const eleventh = await post('/_actions/submitQuote', { 'Content-Type': 'text/plain' }, 'x', client);
    await expectRefusal(eleventh, 429, /Too many requests/);
    expect(eleventh.headers['retry-after']).toMatch(/^\d+$/);
  });
});

/** A fresh form page's token, and a complete, valid submission of it once a person's fill time has passed. */
async function validQuote(n: number): Promise<URLSearchParams> {
  const page = await call(`${server.url}/quote`, { headers: newClient() });
  const token = /name="formToken" value="([^"]+)"/.exec(page.text)![1]!;
  return new URLSearchParams({
    name: `Cross Site ${n}`,
    phone: '(503) 555-0143',
    email: `cross.site.${n}.${Date.now()}@example.com`,
    bedrooms: '2',
    bathrooms: '1',
    service: 'Deep clean',
    notes: 'Origin test.',
    communicationsConsent: 'yes',
    formToken: token,
  });
}

describe('another site cannot make a browser submit a lead', () => {
  const stored = async (email: string) => (await exportLeads(server.databaseUrl)).filter((l) => (l.fields as { email: string }).email === email).length;

  it.each([
    ['an Origin of another site', { Origin: 'https://evil.example.com' }],
    ['Origin: null', { Origin: 'null' }],
    ['no Origin, Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['an Origin that matches only the Host it sends', { Origin: 'http://127.0.0.1:1', Host: '127.0.0.1:1' }],
  ])('%s: 403 on the page and on /_actions/, nothing stored', async (_, sent) => {
    const bodies = await Promise.all([validQuote(1), validQuote(2)]);
    await new Promise((r) => setTimeout(r, MIN_FILL_MS + 200));
    for (const [i, path] of ['/quote?_action=submitQuote', '/_actions/submitQuote'].entries()) {
      const body = bodies[i]!;
      const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', ...newClient(), ...sent };
      const reply = await rawRequest(`${server.url}${path}`, { headers, chunks: [Buffer.from(body.toString())] });
      // Its one log line is the request's: the refusal writes none of its own.
      await expectRefusal(reply, 403, /can only be sent from this site, at http/);
      // The log line names the origin the form came from (never a customer's data).
      const named = (sent as { Origin?: string }).Origin ?? 'none';
      expect(logLinesOf(server.logs, reply.headers['x-request-id'] as string)[0]).toMatchObject({ refusedOrigin: named });
      expect(await stored(body.get('email')!)).toBe(0);
    }
  });

  it('the same submission from the site itself is stored, and its answer is not cached', async () => {
    const bodies = await Promise.all([validQuote(3), validQuote(4)]);
    await new Promise((r) => setTimeout(r, MIN_FILL_MS + 200));
    for (const [i, path] of ['/quote?_action=submitQuote', '/_actions/submitQuote'].entries()) {
      const body = bodies[i]!;
      const reply = await rawRequest(`${server.url}${path}`, {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...newClient(), Origin: SITE },
        chunks: [Buffer.from(body.toString())],
      });
      expect(reply.status).toBe(200);
      expect(reply.headers['cache-control']).toBe('no-store');
      expect(await stored(body.get('email')!)).toBe(1);
    }
  });
});

describe('/_actions/ for anything but a POST', () => {
  it("is the site's 404 page, naming the running SITE_URL, not the build's", async () => {
    const reply = await call(`${server.url}/_actions/nothing`);
    expect(reply.status).toBe(404);
    expect(reply.text).toContain(SITE);
    expect(reply.text).not.toContain('localhost:4321');
  });
});
