/**
 * Holds real responses of the built server against `spec/openapi.yaml`, and the document against
 * the code's own registry and limits, so that neither can drift from the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LENGTH } from '../../src/leads/schema.ts';
import { PROBLEMS, PROBLEM_CODES } from '../../src/problems/registry.ts';
import { contact, newClient, quote } from '../support/fixtures.ts';
import { call, postJson } from '../support/http.ts';
import { openapi, responseErrors, schemaErrors } from '../support/openapi.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1' } });
});
afterAll(async () => {
  await server?.dispose();
});

describe('real responses match the OpenAPI description', () => {
  for (const path of ['/api/v1/leads', '/api/leads']) {
    it(`POST ${path}: 201 for both forms, then 413, 415, 400, 422, 409 and 429`, async () => {
      const client = newClient();
      const url = `${server.url}${path}`;
      const body = contact();
      const replies = [
        await postJson(url, quote(), client),
        await postJson(url, body, client),
        await postJson(url, quote({ notes: 'x'.repeat(20_001) }), client),
        await postJson(url, '{}', { ...client, 'Content-Type': 'text/plain' }),
        await postJson(url, '{', client),
        await postJson(url, quote({ communicationsConsent: false }), client),
        await postJson(url, { name: 1 }, client),
        await postJson(url, body, client),
        await postJson(url, contact({ communicationsConsent: true, consentTimestamp: '2026-11-20T17:03:00Z' }), client),
      ];
      while (replies.length < 11) replies.push(await postJson(url, quote(), client));
      expect(replies.map((r) => r.status)).toEqual([201, 201, 413, 415, 400, 422, 422, 409, 201, 201, 429]);
      for (const reply of replies) expect(responseErrors(path, 'POST', reply), `${reply.status} ${reply.text}`).toEqual([]);
    });
  }

  it('OPTIONS is described on each lead path and on /api/v1, and the real answers conform: 204, Allow, rate-limit headers that spend nothing', async () => {
    for (const path of ['/api/v1/leads', '/api/leads', '/api/v1']) {
      expect(openapi.paths[path].options, path).toBeDefined();
      const client = newClient();
      const reply = await call(`${server.url}${path}`, { method: 'OPTIONS', headers: client });
      expect(reply.status, path).toBe(204);
      expect(responseErrors(path, 'OPTIONS', reply), path).toEqual([]);
      expect(reply.headers.get('allow'), path).toBe(path === '/api/v1' ? 'GET, HEAD, OPTIONS' : 'POST, OPTIONS');
      if (path !== '/api/v1') {
        const again = await call(`${server.url}${path}`, { method: 'OPTIONS', headers: client });
        expect(again.headers.get('ratelimit-remaining'), path).toBe(reply.headers.get('ratelimit-remaining'));
      }
      if (path === '/api/leads') expect(reply.headers.get('deprecation')).toMatch(/^@\d+$/);
    }
  });

  it('GET /api/v1 matches the Status schema', async () => {
    const reply = await call(`${server.url}/api/v1`);
    expect(responseErrors('/api/v1', 'GET', reply)).toEqual([]);
  });

  it('404 and 405 problems match the Problem schema', async () => {
    expect(schemaErrors('Problem', (await call(`${server.url}/api/nothing`)).json)).toEqual([]);
    expect(schemaErrors('Problem', (await call(`${server.url}/api/v1`, { method: 'PUT' })).json)).toEqual([]);
  });

  it('the request examples of the description are accepted by the server', async () => {
    const examples = openapi.components.examples;
    for (const name of ['QuoteRequest', 'ContactMessage']) {
      const reply = await postJson(`${server.url}/api/v1/leads`, examples[name].value, newClient());
      expect(reply.status, reply.text).toBe(201);
    }
  });
});

describe('the description agrees with the code', () => {
  it("lists exactly the registry's problem codes, each with an example that matches the registry", () => {
    expect(openapi.components.schemas.ProblemCode.enum).toEqual(PROBLEM_CODES);
    const examples = [
      ...Object.values(openapi.components.examples as Record<string, { value: { code?: string } }>).map((e) => e.value),
      ...openapi.components.schemas.Problem.examples,
    ].filter((v) => v.code);
    for (const code of PROBLEM_CODES) {
      const example = examples.find((e) => e.code === code);
      expect(example, code).toBeDefined();
      expect(example).toMatchObject({ title: PROBLEMS[code].title, status: PROBLEMS[code].status, resolution: PROBLEMS[code].resolution });
      expect(schemaErrors('Problem', example), code).toEqual([]);
    }
  });

  it('publishes the same maximum lengths the server enforces', () => {
    const s = openapi.components.schemas;
    expect(s.Name.maxLength).toBe(MAX_LENGTH.name);
    expect(s.Email.maxLength).toBe(MAX_LENGTH.email);
    expect(s.Phone.maxLength).toBe(MAX_LENGTH.phone);
    expect(s.QuoteRequest.properties.service.maxLength).toBe(MAX_LENGTH.service);
    expect(s.QuoteRequest.properties.notes.maxLength).toBe(MAX_LENGTH.notes);
    expect(s.PageUrl.maxLength).toBe(MAX_LENGTH.pageUrl);
    expect(s.ConsentTimestamp.maxLength).toBe(MAX_LENGTH.consentTimestamp);
    expect(s.QuoteRequest.properties.pageUrl.$ref).toBe(s.ContactMessage.properties.pageUrl.$ref);
    expect(s.ContactMessage.properties.helpWith.maxLength).toBe(MAX_LENGTH.helpWith);
    expect(s.ContactMessage.properties.message.maxLength).toBe(MAX_LENGTH.message);
  });

  it('declares no security scheme and marks the alias deprecated', () => {
    expect(openapi.security).toEqual([]);
    expect(openapi.components.securitySchemes).toBeUndefined();
    expect(openapi.paths['/api/leads'].post.deprecated).toBe(true);
  });
});
