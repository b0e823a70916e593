/**
 * The service in process, as Hono's `app.request()` or Fastify's `inject()` give it: the one
 * composition (`composeServices`) of a real SQLite store in a temporary folder, the real limiters
 * and a logger whose lines the test reads, and `fetch`, which answers a request through the same
 * front door as every on-demand answer (security headers, the submission budget, the office guard)
 * and the API's route table. No build, no socket: for HTTP contracts (statuses, headers, problem
 * documents, limits, idempotency). What needs a process (framing, signals, pages, nginx, browsers)
 * starts the built server instead (`server.ts`).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { PublicServices } from '../../src/roles/index.ts';
import { composeServices, type Composition } from '../../src/app/compose.ts';
import { createLogger } from '../../src/app/logger.ts';
import { officeLimiters } from '../../src/app/office-limits.ts';
import { loadConfig } from '../../src/config/config.ts';
import { notFound, serveRoute } from '../../src/http/api.ts';
import { clientAddress } from '../../src/http/client-address.ts';
import type { ApiContext } from '../../src/http/context.ts';
import { answerOnDemand } from '../../src/http/front-door.ts';
import { findApiRoute, isApiPath } from '../../src/http/routes.ts';
import { createLimiter } from '../../src/limiter/index.ts';
import { RATE_LIMIT } from '../../src/service-facts.ts';
import type { Store } from '../../src/store/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { offer, promise, serviceArea } from './fixtures.ts';

/**
 * A request's own options in process: the TCP peer it comes from (loopback unless said), whose
 * `X-Forwarded-For` counts as the server counts it (only with `TRUST_PROXY` naming the peer).
 */
export type TestRequestInit = RequestInit & { peer?: string };

export interface TestApp {
  /** The composition, as the server holds it. */
  composition: Composition;
  /** The public services every route receives (`locals.services`), overrides applied. */
  services: PublicServices;
  /** The store behind them, whole (to close it, or read it). */
  store: Store;
  /** Everything logged so far. */
  logged(): string;
  /** Answers `path` (or a `Request`) as the server would, in process: the front door, then the API's route. */
  fetch(input: string | Request, init?: TestRequestInit): Promise<Response>;
  /** Closes the composition and removes its folder. */
  dispose(): Promise<void>;
}

/** The peer a test's requests come from unless they say another: this machine, as a proxy in front would be. */
export const TEST_PEER = '127.0.0.1';

/** Composes the service for one test; `env` as the configuration would read it, `overrides` replacing public services. */
export async function testApp(options: { env?: Record<string, string>; overrides?: Partial<PublicServices> } = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'test-app-'));
  const config = loadConfig({ DATABASE_URL: `file:${join(dir, 'leads.sqlite')}`, ...options.env });
  let logged = '';
  const sink = new Writable({ write: (chunk, _encoding, done) => ((logged += String(chunk)), done()) });
  const logger = createLogger('info', sink);
  const store = openSqliteStore(config.database.kind === 'sqlite' ? config.database.path : '', { groupCommit: true, log: logger });
  const composition = await composeServices({
    config,
    logger,
    store,
    offer: offer(),
    promise: promise(),
    serviceArea: serviceArea(),
    limiters: { submissions: createLimiter(config, { ...RATE_LIMIT, name: 'leads' }), office: officeLimiters(config) },
  });
  const services: PublicServices = { ...composition.services, ...options.overrides };

  return {
    composition,
    services,
    store,
    logged: () => logged,
    fetch(input, init = {}) {
      const { peer = TEST_PEER, ...requestInit } = init;
      const request = typeof input === 'string' ? new Request(new URL(input, config.siteUrl), requestInit) : input;
      const url = new URL(request.url);
      if (!isApiPath(url.pathname)) throw new Error(`${url.pathname} is a page: start the built server to test it`);
      const client = clientAddress(peer, request.headers.get('x-forwarded-for') ?? undefined, config.trustProxy);
      const locals: ApiContext = { services, request: { id: randomUUID(), clientAddress: client, host: url.host } };
      const route = findApiRoute(url.pathname);
      const next = () => (route ? serveRoute(route, request.method, request, locals) : notFound(url.pathname, locals));
      return answerOnDemand(request, url, locals, composition.office, next, { requestIdSent: false });
    },
    async dispose() {
      await composition.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
