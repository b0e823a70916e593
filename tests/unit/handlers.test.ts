/**
 * The handlers as `Request -> Response` functions, without a socket, on a real SQLite store that
 * has been closed: what a caller gets when the lead store cannot be reached.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { quote } from '../support/fixtures.ts';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeEach(async () => {
  app = await testApp();
});
afterEach(() => app.dispose());

const post = (body: unknown, path = '/api/v1/leads') =>
  app.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('when the lead store cannot be reached', () => {
  it('a lead POST gets 503 service_unavailable with Retry-After, and no 201', async () => {
    await app.store.close();
    const res = await post(quote());
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res.headers.get('ratelimit-limit')).toBe('10');
    expect((await res.json()).code).toBe('service_unavailable');
    expect(app.logged()).toContain('lead store unavailable');
    expect(app.logged()).toContain(res.headers.get('x-request-id'));
  });

  it('GET /api/v1 answers 503 with the same document, status "unavailable" and Retry-After', async () => {
    await app.store.close();
    const res = await app.fetch('/api/v1');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await res.json()).toMatchObject({ status: 'unavailable', authentication: 'none' });
  });
});

describe('an unexpected failure', () => {
  it('becomes a bare 500 internal_error, logged once with the request id and without internals in the body', async () => {
    await app.dispose();
    app = await testApp({ overrides: { intake: { submit: () => Promise.reject(new TypeError('secret internal detail')), ping: () => Promise.resolve() } } });
    const res = await post(quote(), '/api/leads');
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(JSON.parse(body).code).toBe('internal_error');
    expect(body).not.toContain('secret internal detail');
    expect(res.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(app.logged().match(/unexpected error/g)).toHaveLength(1);
    expect(app.logged()).toContain(res.headers.get('x-request-id'));
  });
});
