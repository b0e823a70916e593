/** GET /api/v1, the deprecated alias's headers, and what does not exist, over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClient, quote } from '../support/fixtures.ts';
import { call, postJson, rawRequest } from '../support/http.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1' } });
});
afterAll(async () => {
  await server?.dispose();
});

const V1_LAUNCH = Math.floor(Date.parse('2026-11-22T00:00:00Z') / 1000);

describe('GET /api/v1', () => {
  it('describes the service with absolute links, the rules and the alias, and is not cached', async () => {
    const reply = await call(`${server.url}/api/v1`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.json).toMatchObject({
      status: 'ok',
      authentication: 'none',
      name: 'Lead Intake API',
      version: '1.0.0',
      rateLimit: { limit: 10, windowSeconds: 60, policy: '10;w=60' },
    });
    const base = 'http://localhost:4321';
    expect(reply.json.links).toEqual({
      leads: `${base}/api/v1/leads`,
      openapi: `${base}/openapi.json`,
      apiDocs: `${base}/api-docs`,
      apiCatalog: `${base}/.well-known/api-catalog`,
      llmsTxt: `${base}/llms.txt`,
      developers: `${base}/developers`,
      errors: `${base}/developers/errors`,
      leadSchema: `${base}/schemas/lead-submission.json`,
      terms: `${base}/terms`,
      privacy: `${base}/privacy`,
    });
    expect(reply.json.usageRules).toHaveLength(4);
    expect(reply.json.deprecated[0]).toMatchObject({ path: `${base}/api/leads`, successor: `${base}/api/v1/leads`, sunset: null });
  });

  it('sends a Link header to the catalog, the description and the docs', async () => {
    const link = (await call(`${server.url}/api/v1`)).headers.get('link')!;
    expect(link).toContain('<http://localhost:4321/.well-known/api-catalog>; rel="api-catalog"');
    expect(link).toContain('<http://localhost:4321/openapi.json>; rel="service-desc"');
    expect(link).toContain('<http://localhost:4321/api-docs>; rel="service-doc"');
  });

  it('answers HEAD with the same status and headers and no body', async () => {
    const reply = await call(`${server.url}/api/v1`, { method: 'HEAD' });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('');
    expect(reply.headers.get('link')).toContain('rel="api-catalog"');
  });

  it('links from SITE_URL alone, whatever Host or X-Forwarded-Host say', async () => {
    const reply = await rawRequest(`${server.url}/api/v1`, {
      method: 'GET',
      headers: { Host: 'evil.example.com', 'X-Forwarded-Host': 'evil.example.com', 'X-Forwarded-Proto': 'https' },
    });
    expect(reply.body).not.toContain('evil');
    expect(JSON.parse(reply.body).links.leads).toBe('http://localhost:4321/api/v1/leads');
  });
});

describe('methods and unknown paths', () => {
  it('answers a wrong method on a known API path with 405 and Allow', async () => {
    const cases: Array<[string, string, string]> = [
      ['POST', '/api/v1', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/api/v1', 'GET, HEAD, OPTIONS'],
      ['GET', '/api/v1/leads', 'POST, OPTIONS'],
      ['PUT', '/api/v1/leads', 'POST, OPTIONS'],
      ['GET', '/api/leads', 'POST, OPTIONS'],
    ];
    for (const [method, path, allow] of cases) {
      const reply = await call(`${server.url}${path}`, { method, headers: newClient() });
      expect(reply.status, `${method} ${path}`).toBe(405);
      expect(reply.headers.get('allow')).toBe(allow);
      expect(reply.headers.get('content-type')).toBe('application/problem+json');
      expect(reply.json.code).toBe('method_not_allowed');
    }
  });

  it('answers OPTIONS on an API path with 204 and Allow', async () => {
    const reply = await call(`${server.url}/api/v1/leads`, { method: 'OPTIONS' });
    expect(reply.status).toBe(204);
    expect(reply.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('answers unknown paths under /api/ with a 404 problem', async () => {
    for (const path of ['/api', '/api/', '/api/v2/leads', '/api/v1/leads/123', '/api/v1/register', '/api/agent/auth', '/api/v1/leads.json']) {
      const reply = await call(`${server.url}${path}`, { method: path.includes('register') ? 'POST' : 'GET' });
      expect(reply.status, path).toBe(404);
      expect(reply.headers.get('content-type'), path).toBe('application/problem+json');
      expect(reply.json.code).toBe('not_found');
    }
  });

  it('answers a bad percent-encoding under /api/ with a 400 problem', async () => {
    const reply = await rawRequest(`${server.url}/api/%E0%A4%A`, { method: 'GET' });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).code).toBe('bad_request');
  });

  it('publishes no OAuth metadata, no registration path and no WWW-Authenticate', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
      '/agent/auth',
      '/register',
    ]) {
      const reply = await call(`${server.url}${path}`);
      expect(reply.status, path).toBe(404);
      expect(reply.headers.get('www-authenticate')).toBeNull();
    }
    const withToken = await postJson(`${server.url}/api/v1/leads`, quote(), { ...newClient(), Authorization: 'Bearer token' });
    expect(withToken.status).toBe(400);
    expect(withToken.headers.get('www-authenticate')).toBeNull();
  });
});

describe('the deprecated alias /api/leads', () => {
  const expectAliasHeaders = (headers: Headers) => {
    expect(headers.get('deprecation')).toBe(`@${V1_LAUNCH}`);
    expect(headers.get('link')).toBe(
      '<http://localhost:4321/api/v1/leads>; rel="successor-version", <http://localhost:4321/developers#deprecation-policy>; rel="deprecation"; type="text/html"',
    );
    expect(headers.get('sunset')).toBeNull();
  };

  it('stores leads like v1 and marks every answer deprecated, errors included', async () => {
    const ok = await postJson(`${server.url}/api/leads`, quote(), newClient());
    expect(ok.status).toBe(201);
    expectAliasHeaders(ok.headers);
    for (const reply of [await postJson(`${server.url}/api/leads`, '{', newClient()), await call(`${server.url}/api/leads`, { headers: newClient() })]) {
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expectAliasHeaders(reply.headers);
    }
  });

  it('sends no deprecation headers on /api/v1/leads', async () => {
    const reply = await postJson(`${server.url}/api/v1/leads`, quote(), newClient());
    expect(reply.headers.get('deprecation')).toBeNull();
    expect(reply.headers.get('sunset')).toBeNull();
  });
});

describe('deprecation configuration', () => {
  it('sends the configured Deprecation date and a Sunset given at least 365 days of notice', async () => {
    const sunset = new Date(Date.now() + 400 * 86_400_000);
    sunset.setUTCHours(0, 0, 0, 0);
    const s = await startServer({ env: { LEADS_DEPRECATION_DATE: '2026-12-01T00:00:00Z', LEADS_SUNSET_DATE: sunset.toISOString() } });
    try {
      const reply = await postJson(`${s.url}/api/leads`, {}, {});
      expect(reply.headers.get('deprecation')).toBe(`@${Date.parse('2026-12-01T00:00:00Z') / 1000}`);
      expect(reply.headers.get('sunset')).toBe(sunset.toUTCString());
      expect((await call(`${s.url}/api/v1`)).json.deprecated[0].sunset).toBe(sunset.toISOString());
    } finally {
      await s.dispose();
    }
  });

  it('refuses to start with a Sunset less than 365 days away, naming the variable', async () => {
    const soon = new Date(Date.now() + 100 * 86_400_000).toISOString().slice(0, 10);
    await expect(startServer({ env: { LEADS_SUNSET_DATE: soon } })).rejects.toThrow(/LEADS_SUNSET_DATE.*365/s);
  });

  it('refuses to start on an invalid variable, naming it', async () => {
    await expect(startServer({ env: { TRUST_PROXY: 'everyone' } })).rejects.toThrow(/TRUST_PROXY/);
  });
});
