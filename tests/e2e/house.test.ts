/**
 * One house: the API answers the same under `npm run dev` as under the built server, the route
 * table is what every API path answers, and one build serves whatever SITE_URL it is started with.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowHeader } from '../../src/http/api.ts';
import { API_ROUTES } from '../../src/http/routes.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { call, postJson, rawRequest } from '../support/http.ts';
import { exportLeads, ROOT, startDevServer, startServer, type RunningServer } from '../support/server.ts';

describe("npm run dev (Astro's own dev server, what editors run)", () => {
  let dev: RunningServer;
  beforeAll(async () => {
    dev = await startDevServer();
  });
  afterAll(async () => {
    await dev?.dispose();
  });

  it('answers GET /api/v1 with the status document', async () => {
    const reply = await call(`${dev.url}/api/v1`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toMatchObject({ status: 'ok', authentication: 'none' });
    expect(reply.headers.get('link')).toContain('rel="api-catalog"');
  });

  it('stores a valid quote (201, found by leads export) with the rate-limit headers', async () => {
    const reply = await postJson(`${dev.url}/api/v1/leads`, quote());
    expect(reply.status, reply.text).toBe(201);
    expect(reply.headers.get('ratelimit-limit')).toBe('10');
    expect(reply.headers.get('ratelimit-policy')).toBe('10;w=60');
    expect(reply.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
    expect((await exportLeads(dev.databaseUrl)).map((l) => l.id)).toContain(reply.json.id);
  });

  it('renders the pages with the running configuration (the retention on /privacy)', async () => {
    const page = await call(`${dev.url}/privacy`);
    expect(page.status).toBe(200);
    expect(page.text, /<strong>[^<]*days<\/strong>/.exec(page.text)?.[0]).toContain('<strong>730 days</strong>');
  });

  it('answers an invalid lead with a 422 problem document, and unknown paths and methods as the built server does', async () => {
    const invalid = await postJson(`${dev.url}/api/v1/leads`, quote({ phone: '12' }));
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('content-type')).toBe('application/problem+json');
    expect(invalid.json).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ pointer: '#/phone' })] });
    expect(invalid.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
    expect((await call(`${dev.url}/api/v2/leads`)).json?.code).toBe('not_found');
    const wrong = await call(`${dev.url}/api/leads`, { method: 'GET' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST, OPTIONS');
    expect(wrong.headers.get('deprecation')).toMatch(/^@\d+$/);
  });

  it('serves every document at the address and with the media type and headers the built server gives it', async () => {
    const built = await startServer();
    try {
      for (const path of ['/api-docs', '/api-docs/', '/api-docs/redoc.js', '/openapi.json', '/llms.txt', '/.well-known/api-catalog', '/robots.txt']) {
        const [inDev, inBuild] = await Promise.all([call(`${dev.url}${path}`), call(`${built.url}${path}`)]);
        const seen = (reply: typeof inDev) =>
          Object.fromEntries(['content-type', 'access-control-allow-origin', 'x-content-type-options'].map((name) => [name, reply.headers.get(name)]));
        expect(inDev.status, path).toBe(200);
        expect(inBuild.status, path).toBe(200);
        expect(seen(inDev), path).toEqual(seen(inBuild));
      }
    } finally {
      await built.dispose();
    }
  });
});

describe('the route table', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1' } });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('has an entry for every route file under src/pages/api, and a route file for every entry', () => {
    const files = readdirSync(join(ROOT, 'src/pages/api'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => `/${relative(join(ROOT, 'src/pages'), join(e.parentPath, e.name)).split(sep).join('/')}`.replace(/(\/index)?\.ts$/, ''))
      .filter((path) => !path.includes('['));
    expect(files.sort()).toEqual(API_ROUTES.map((r) => r.path).sort());
  });

  for (const route of API_ROUTES) {
    it(`${route.path}: OPTIONS, and 405 for every method but ${route.methods.join(', ')}, with Allow from the table`, async () => {
      const allow = allowHeader(route);
      const options = await rawRequest(`${server.url}${route.path}`, { method: 'OPTIONS', headers: newClient() });
      expect(options.status).toBe(204);
      expect(options.headers.allow).toBe(allow);
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE']) {
        const reply = await rawRequest(`${server.url}${route.path}`, { method, headers: { ...newClient(), 'Content-Length': 0 } });
        if (route.methods.includes(method)) {
          expect(reply.status, `${method} ${route.path}`).not.toBe(405);
          continue;
        }
        expect(reply.status, `${method} ${route.path}`).toBe(405);
        expect(reply.headers.allow, `${method} ${route.path}`).toBe(allow);
        expect(reply.headers['content-type']).toBe('application/problem+json');
        if (route.rateLimited) expect(reply.headers['ratelimit-limit'], `${method} ${route.path}`).toBe('10');
        if (route.deprecated) expect(reply.headers.deprecation, `${method} ${route.path}`).toMatch(/^@\d+$/);
      }
    });
  }
});

describe('one build, any origin', () => {
  // The suite's build was made with SITE_URL=http://localhost:4321; this server runs as another origin.
  const BUILT = 'http://localhost:4321';
  const SERVED = 'https://leads.example.org';
  let built: RunningServer;
  let other: RunningServer;
  beforeAll(async () => {
    [built, other] = await Promise.all([startServer(), startServer({ env: { SITE_URL: SERVED } })]);
  });
  afterAll(async () => {
    await Promise.all([built?.dispose(), other?.dispose()]);
  });

  /** Every URL path the build's static files answer to. */
  const staticPaths = () =>
    readdirSync(join(ROOT, 'dist/client'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => `/${relative(join(ROOT, 'dist/client'), join(e.parentPath, e.name)).split(sep).join('/')}`.replace(/\/index\.html$/, '') || '/');

  it("names the running SITE_URL, never the build's, in every document, page and file it serves", async () => {
    const paths = staticPaths();
    expect(paths).toEqual(expect.arrayContaining(['/openapi.json', '/.well-known/api-catalog', '/llms.txt', '/api-docs', '/', '/developers', '/privacy']));
    for (const path of paths) {
      const reply = await call(`${other.url}${path}`);
      expect(reply.status, path).toBe(200);
      expect(reply.text, path).not.toContain(BUILT);
      expect(reply.text, path).not.toContain('@@configured:');
    }
    const openapi = (await call(`${other.url}/openapi.json`)).json;
    expect(openapi.servers[0].url).toBe(SERVED);
    expect((await call(`${other.url}/.well-known/api-catalog`)).json.linkset[0].anchor).toBe(`${SERVED}/api/v1`);
    expect((await call(`${other.url}/llms.txt`)).text).toContain(`curl -i ${SERVED}/api/v1/leads`);
    expect((await call(`${other.url}/developers`)).text).toContain(`<link rel="api-catalog" href="${SERVED}/.well-known/api-catalog"`);
    expect((await call(`${other.url}/api-docs`)).text).toContain(`${SERVED}/api/v1/leads`);
  });

  it("sends the running SITE_URL in the API's links and headers", async () => {
    const status = await call(`${other.url}/api/v1`);
    expect(status.json.links.leads).toBe(`${SERVED}/api/v1/leads`);
    expect(status.headers.get('link')).toContain(`<${SERVED}/.well-known/api-catalog>; rel="api-catalog"`);
    const alias = await postJson(`${other.url}/api/leads`, quote(), {});
    expect(alias.headers.get('link')).toContain(`<${SERVED}/api/v1/leads>; rel="successor-version"`);
    expect((await call(`${other.url}/api/nothing`)).json.type).toBe(`${SERVED}/developers/errors#not_found`);
    expect((await call(`${other.url}/.well-known/api-catalog`)).headers.get('link')).toBe(`<${SERVED}/.well-known/api-catalog>; rel="api-catalog"`);
  });

  it('computes each validator from the bytes it serves: ETags differ where the bytes do, and revalidate', async () => {
    for (const path of ['/openapi.json', '/llms.txt', '/.well-known/api-catalog', '/developers', '/api-docs', '/favicon.svg']) {
      const [a, b] = await Promise.all([call(`${built.url}${path}`), call(`${other.url}${path}`)]);
      expect(a.text === b.text, path).toBe(a.headers.get('etag') === b.headers.get('etag'));
      const again = await call(`${other.url}${path}`, { headers: { 'If-None-Match': b.headers.get('etag')! } });
      expect(again.status, path).toBe(304);
    }
  });

  it("allows /api-docs' inline scripts by the hashes of the scripts it serves", async () => {
    const reply = await call(`${other.url}/api-docs`);
    const csp = reply.headers.get('content-security-policy')!;
    const scripts = [...reply.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter((m) => !/\bsrc=/.test(m[1]!) && m[2]!.length > 0);
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, , body] of scripts) expect(csp).toContain(`'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
  });
});
