/**
 * The handlers as `Request -> Response` functions, without a socket, on a real SQLite store that
 * has been closed: what a caller gets when the lead store cannot be reached.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { serveRoute } from '../../src/http/api.ts';
import type { ApiContext } from '../../src/http/context.ts';
import { aliasHeaders } from '../../src/http/deprecation.ts';
import { findApiRoute } from '../../src/http/routes.ts';
import { createLimiter } from '../../src/limiter/index.ts';
import { createLogger } from '../../src/app/logger.ts';
import { openSqliteStore } from '../../src/store/sqlite-store.ts';
import { quote } from '../support/fixtures.ts';

let dir: string;
let ctx: ApiContext;
let logged: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'handlers-'));
  const config = loadConfig({ DATABASE_URL: `file:${join(dir, 'leads.sqlite')}` });
  logged = '';
  const sink = new Writable({ write: (chunk, _enc, done) => ((logged += String(chunk)), done()) });
  ctx = {
    services: { config, store: openSqliteStore(config.database.kind === 'sqlite' ? config.database.path : ''), limiter: createLimiter(config).limiter, logger: createLogger('info', sink), aliasHeaders: aliasHeaders(config), formTokenKey: Buffer.alloc(32), offer: { services: ['Deep clean'], contactTopics: ['Rescheduling a visit'], consentText: 'I agree that Example Cleaning Co. may call me, text me and e-mail me about this request.' } },
    request: { id: '3b241101-e2bb-4255-8caf-4136c566a962', clientAddress: '198.51.100.20', host: 'localhost:4321' },
  };
});
afterEach(async () => {
  await ctx.services.store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Answers a request as the route file for its path does. */
const answer = (request: Request) => serveRoute(findApiRoute(new URL(request.url).pathname)!, request.method, request, ctx);
const post = (body: unknown, path = '/api/v1/leads') => new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('when the lead store cannot be reached', () => {
  it('a lead POST gets 503 service_unavailable with Retry-After, and no 201', async () => {
    await ctx.services.store.close();
    const res = await answer(post(quote()));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res.headers.get('ratelimit-limit')).toBe('10');
    expect((await res.json()).code).toBe('service_unavailable');
    expect(logged).toContain('lead store unavailable');
    expect(logged).toContain(ctx.request.id);
  });

  it('GET /api/v1 answers 503 with the same document, status "unavailable" and Retry-After', async () => {
    await ctx.services.store.close();
    const res = await answer(new Request('http://localhost/api/v1'));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await res.json()).toMatchObject({ status: 'unavailable', authentication: 'none' });
  });
});

describe('an unexpected failure', () => {
  it('becomes a bare 500 internal_error, logged once with the request id and without internals in the body', async () => {
    ctx.services.store.submit = () => Promise.reject(new TypeError('secret internal detail'));
    const res = await answer(post(quote(), '/api/leads'));
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(JSON.parse(body).code).toBe('internal_error');
    expect(body).not.toContain('secret internal detail');
    expect(res.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(logged.match(/unexpected error/g)).toHaveLength(1);
    expect(logged).toContain(ctx.request.id);
  });
});
