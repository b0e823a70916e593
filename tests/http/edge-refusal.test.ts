/**
 * Refusals at the serving edge (docs/decisions/0032), in process: the server's own transport
 * (`createAppServer`) on a loopback port, in front of a stand-in for Astro's handler that does what
 * the adapter does (Astro's own `createRequest` and `writeResponse`, the middleware's front door,
 * the API's route table), counting the requests it is handed. A client's first ten submissions of
 * a minute and its first refusal go through it; every later submission of the window is answered
 * by the server with the same answer, byte for byte with the limiter's clock held still, spending
 * nothing; on both lead paths and both forms, for the client the endpoint counts (its /64).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLimiter } from '../../src/limiter/memory-limiter.ts';
import type { RateLimiter } from '../../src/limiter/rate-limiter.ts';
import { RATE_LIMIT } from '../../src/service-facts.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { edgeServer, expectSameRefusal, logLineShape, type EdgeServer, type WireReply } from '../support/edge-refusal.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { rawRequest } from '../support/http.ts';

const SITE = 'http://localhost:4321';
const FORMS = ['/_actions/submitQuote', '/quote?_action=submitQuote', '/_actions/submitContact', '/contact?_action=submitContact'];

let app: TestApp;
let server: EdgeServer;
/** Requests handed to Astro, and submissions spent. */
const counts = {
  get astro() {
    return server.astroCalls();
  },
  spent: 0,
};

beforeAll(async () => {
  // The limiter's clock held still: every answer of a window says the same seconds.
  const still = createMemoryLimiter(RATE_LIMIT, () => 0);
  const limiter: RateLimiter = { consume: (key) => (counts.spent++, still.consume(key)), peek: still.peek, refused: still.refused };
  app = await testApp({ env: { TRUST_PROXY: '127.0.0.1, ::1' }, overrides: { limiter } });
  server = await edgeServer(app);
});
afterAll(async () => {
  await server?.stop();
  await app?.dispose();
});

const send = (path: string, headers: Record<string, string>, body: string) => server.post(path, headers, body);
const lead = (path: string, client: Record<string, string>) => send(path, { ...client, 'Content-Type': 'application/json' }, JSON.stringify(quote()));
const form = (path: string, client: Record<string, string>) =>
  send(path, { ...client, Origin: SITE, 'Content-Type': 'application/x-www-form-urlencoded' }, 'name=Jane+Doe&email=jane.doe%40example.com');

/** The request's one log line. */
async function lineOf(reply: WireReply): Promise<Record<string, unknown>> {
  const id = reply.headers['x-request-id'] as string;
  const lines = () =>
    app
      .logged()
      .split('\n')
      .filter((l) => l.includes(id) && l.includes('"msg":"request"'));
  await expect.poll(() => lines().length).toBe(1);
  return JSON.parse(lines()[0]!) as Record<string, unknown>;
}

/** Sends `submit` as a fresh client until its budget is spent: the ten through Astro, then the endpoint's refusal. */
async function spendTen(client: Record<string, string>, path = '/api/v1/leads'): Promise<void> {
  const before = counts.astro;
  for (let i = 0; i < 10; i++) expect((await lead(path, client)).status).toBe(201);
  expect(counts.astro - before).toBe(10);
}

/** Sends `submit` once through Astro (the endpoint's refusal), then once more: at the edge, the same, spending nothing. */
async function endpointThenEdge(submit: () => Promise<WireReply>): Promise<[WireReply, WireReply]> {
  const astro = counts.astro;
  const endpoint = await submit();
  expect(counts.astro).toBe(astro + 1);
  const spent = counts.spent;
  const edge = await submit();
  expect(counts.astro).toBe(astro + 1);
  expect(counts.spent).toBe(spent);
  expectSameRefusal(endpoint, edge, true);
  expect(logLineShape(await lineOf(edge))).toEqual(logLineShape(await lineOf(endpoint)));
  return [endpoint, edge];
}

describe('a lead POST of a client refused in its window', () => {
  it.each(['/api/v1/leads', '/api/leads'])('POST %s: the edge answers what the endpoint answered, and spends nothing', async (path) => {
    const client = newClient();
    await spendTen(client, path);
    const [, edge] = await endpointThenEdge(() => lead(path, client));
    expect(edge.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(edge.body)).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(edge.headers['cache-control']).toBe('no-store');
    expect(edge.headers['ratelimit-remaining']).toBe('0');
    expect(edge.headers['x-content-type-options']).toBe('nosniff');
    if (path === '/api/leads') {
      expect(edge.headers.deprecation).toMatch(/^@\d+$/);
      expect(edge.headers.link).toContain('rel="successor-version"');
    } else expect(edge.headers.deprecation).toBeUndefined();
    // Any body, any header: refused first, as the endpoint refuses first.
    const before = counts.astro;
    expect((await send(path, { ...client, Authorization: 'Bearer x', 'Content-Type': 'text/plain' }, 'x')).status).toBe(429);
    expect(counts.astro).toBe(before);
  });

  it('finds the client as the endpoint does: the same /64 is refused at the edge, another /64 goes through Astro', async () => {
    const site = `2001:db8:e${(process.pid % 4095).toString(16)}`;
    const fourth = Date.now() % 65534;
    const prefix = `${site}:${fourth.toString(16)}`;
    let host = 0;
    const next = () => ({ 'X-Forwarded-For': `${prefix}::${(++host).toString(16)}` });
    await spendTen(next());
    // Each submission from another address of the same /64.
    await endpointThenEdge(() => lead('/api/v1/leads', next()));
    const before = counts.astro;
    expect((await lead('/api/v1/leads', { 'X-Forwarded-For': `${site}:${(fourth + 1).toString(16)}::1` })).status).toBe(201);
    expect(counts.astro).toBe(before + 1);
  });

  it('a POST with ?_action= to a page that is not a form (the office sign-in, an unknown page) still goes through Astro', async () => {
    const client = newClient();
    await spendTen(client);
    expect((await lead('/api/v1/leads', client)).status).toBe(429);
    for (const path of ['/office/sign-in?_action=submitQuote', '/somewhere?_action=submitQuote']) {
      const before = counts.astro;
      await form(path, client);
      expect(counts.astro, path).toBe(before + 1);
    }
  });

  it('OPTIONS and other methods of a refused client still go through Astro', async () => {
    const client = newClient();
    await spendTen(client);
    expect((await lead('/api/v1/leads', client)).status).toBe(429);
    const before = counts.astro;
    const options = await rawRequest(`http://127.0.0.1:${server.port}/api/v1/leads`, { method: 'OPTIONS', headers: client });
    expect(options.status).toBe(204);
    expect(counts.astro).toBe(before + 1);
  });
});

describe('a web form of a client refused in its window', () => {
  it.each(FORMS)('POST %s: the edge answers what the form guard answered', async (path) => {
    const client = newClient();
    await spendTen(client);
    const [, edge] = await endpointThenEdge(() => form(path, client));
    expect(edge.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(edge.body).toMatch(/^Too many requests were sent from your connection in the last minute\. Nothing was saved\./);
    expect(edge.headers['cache-control']).toBe('no-store');
  });

  it('answers a refused client before anything else, another site or a broken body alike', async () => {
    const client = newClient();
    await spendTen(client);
    const foreign = await send('/_actions/submitQuote', { ...client, Origin: 'https://elsewhere.example.com', 'Content-Type': 'text/plain' }, 'x');
    expect(foreign.status).toBe(429);
    // The line still names the origin it came from.
    expect(await lineOf(foreign)).toMatchObject({ status: 429, refusedOrigin: 'https://elsewhere.example.com' });
  });
});
