/**
 * The services a handler runs with, built for a test in one line (as Hono's `app.request()` or
 * Fastify's `inject()` let a test do): a real SQLite store in a temporary folder, the real
 * in-process limiter, a logger whose lines the test reads; `overrides` replace any of them where a
 * test needs it. The end-to-end suites still start the built server; this is for `Request ->
 * Response` tests beside them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { officeServices, spamFolder, storeRoles, type AppServices } from '../../src/app/context.ts';
import { createLogger } from '../../src/app/logger.ts';
import { loadConfig } from '../../src/config.ts';
import { serveRoute } from '../../src/http/api.ts';
import type { ApiContext } from '../../src/http/context.ts';
import { aliasHeaders } from '../../src/http/deprecation.ts';
import { findApiRoute } from '../../src/http/routes.ts';
import type { Store } from '../../src/store/index.ts';
import { createLimiter } from '../../src/limiter/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { offer } from './fixtures.ts';
import { SIGN_IN_LIMITS } from '../../src/office/session.ts';

export interface TestApp {
  /** What a route receives as `locals`. */
  ctx: ApiContext;
  /** The store behind `ctx.services.intake`, whole (replace `intake` through `overrides`, not here). */
  store: Store;
  /** Everything logged so far. */
  logged(): string;
  /** Answers `request` as the route file for its path does. */
  answer(request: Request): Promise<Response>;
  /** Closes the store and removes its folder. */
  dispose(): Promise<void>;
}

/** Builds the services of one test; `env` as the configuration would read it, `overrides` replacing services. */
export function testApp(options: { env?: Record<string, string>; overrides?: Partial<AppServices> } = {}): TestApp {
  const dir = mkdtempSync(join(tmpdir(), 'test-app-'));
  const config = loadConfig({ DATABASE_URL: `file:${join(dir, 'leads.sqlite')}`, ...options.env });
  let logged = '';
  const sink = new Writable({ write: (chunk, _enc, done) => ((logged += String(chunk)), done()) });
  const store = openSqliteStore(config.database.kind === 'sqlite' ? config.database.path : '');
  const services: AppServices = {
    config,
    // As the composition hands it out: the intake's methods alone.
    intake: storeRoles(store).intake,
    limiter: createLimiter(config).limiter,
    logger: createLogger('info', sink),
    aliasHeaders: aliasHeaders(config),
    formTokenKey: Buffer.alloc(32),
    offer: offer(),
    spamFolder: spamFolder(store),
    office: officeServices(store, {
      account: createLimiter(config, { ...SIGN_IN_LIMITS.account, name: 'sign-in:account' }).limiter,
      client: createLimiter(config, { ...SIGN_IN_LIMITS.client, name: 'sign-in:client' }).limiter,
    }),
    ...options.overrides,
  };
  const ctx: ApiContext = { services, request: { id: '3b241101-e2bb-4255-8caf-4136c566a962', clientAddress: '198.51.100.20', host: 'localhost:4321' } };
  return {
    ctx,
    store,
    logged: () => logged,
    answer: (request) => serveRoute(findApiRoute(new URL(request.url).pathname)!, request.method, request, ctx),
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
