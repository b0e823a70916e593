/**
 * The office's pages and endpoints in process, beside `testApp()`: each module under `src/pages/`
 * compiled as Astro's dev server compiles it (its own Vite, in middleware mode: no port, no build,
 * its cache in a temporary folder), an endpoint called with its context as Astro calls it, a page
 * rendered by Astro's container API, behind the same front door (`answerOnDemand`: the office
 * guard, the security headers, a HEAD's body cancelled). The content the pages read
 * (`astro:content`) is `content/` read as the quick tests read it (`src/content-check/read.ts`).
 * What needs a process (framing, signals, the built files, browsers) still starts the built server.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIContext } from 'astro';
import { getViteConfig } from 'astro/config';
import { experimental_AstroContainer } from 'astro/container';
import { createServer, type InlineConfig, type Plugin, type ViteDevServer } from 'vite';
import { clientAddress } from '../../src/http/client-address.ts';
import type { ApiContext } from '../../src/http/context.ts';
import { answerOnDemand } from '../../src/http/front-door.ts';
import { isApiPath } from '../../src/http/routes.ts';
import type { TestApp, TestRequestInit } from './app.ts';
import { ROOT } from './server.ts';
import { TEST_PEER } from './app.ts';

const CONTENT_MODULE = '\0test:astro-content';

/** `astro:content` as the pages use it, from the files of `content/` (the company and both forms), read once. */
function contentFromFiles(): Plugin {
  return {
    name: 'test:content-from-files',
    enforce: 'pre',
    resolveId: (id) => (id === 'astro:content' ? CONTENT_MODULE : undefined),
    load: (id) =>
      id === CONTENT_MODULE
        ? `import { readContent } from '/src/content-check/read.ts';
const content = readContent(${JSON.stringify(ROOT)});
const entries = { company: { company: content.company }, quoteForm: { quote: content.quoteForm }, contactForm: { contact: content.contactForm } };
export async function getEntry(collection, id) { const data = entries[collection]?.[id]; return data && { id, collection, data }; }
export async function getCollection(collection) { return Object.entries(entries[collection] ?? {}).map(([id, data]) => ({ id, collection, data })); }
export const defineCollection = (c) => c;`
        : undefined,
  };
}

export interface Pages {
  /** Answers `path` (a page or endpoint under `src/pages/`) in process, through the front door, as the server would. */
  fetch(input: string, init?: TestRequestInit): Promise<Response>;
  /**
   * The page's own answer to `path`, as it left the page (before the front door cancels a HEAD's
   * body or sets its headers); `undefined` when the guard answered instead of the page.
   */
  pageAnswer(input: string, init?: TestRequestInit): Promise<Response | undefined>;
  /** A module of the project (`src/site/form-words.ts`) as the pages see it: `astro:content` and the other virtual modules included. */
  module<T = Record<string, unknown>>(file: string): Promise<T>;
  close(): Promise<void>;
}

/** The module file of the page that answers `path`, as Astro's file routes name it. */
function pageFile(path: string): string {
  const base = join(ROOT, 'src/pages', path.replace(/\/$/, ''));
  for (const file of [`${base}.ts`, `${base}.astro`, join(base, 'index.astro'), join(base, 'index.ts')]) if (existsSync(file)) return file;
  throw new Error(`no page under src/pages answers ${path}`);
}

/** The pages of `app`'s composition in process; `close()` when the file's tests are done. */
export async function pagesOf(app: TestApp): Promise<Pages> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'test-pages-'));
  const astroConfig = (await (getViteConfig({}, { logLevel: 'error' }) as unknown as (env: object) => Promise<InlineConfig>)({
    command: 'serve',
    mode: 'development',
  })) as InlineConfig;
  const vite: ViteDevServer = await createServer({
    ...astroConfig,
    configFile: false,
    cacheDir,
    logLevel: 'error',
    plugins: [contentFromFiles(), ...(astroConfig.plugins ?? [])],
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
    appType: 'custom',
  });
  const container = await experimental_AstroContainer.create();
  const config = app.services.config;

  async function render(request: Request, url: URL, locals: ApiContext): Promise<Response> {
    const file = pageFile(url.pathname);
    const page = (await vite.ssrLoadModule(file)) as Record<string, unknown>;
    if (file.endsWith('.astro')) return container.renderToResponse(page.default as never, { request, locals: locals as never, partial: false });
    const handler = (page[request.method] ?? (request.method === 'HEAD' ? page.GET : undefined) ?? page.ALL) as
      ((context: Partial<APIContext>) => Promise<Response>) | undefined;
    if (!handler) return new Response(null, { status: 405 });
    return handler({ request, url, locals: locals as never, params: {}, redirect: (to, status = 302) => Response.redirect(new URL(to, url), status) });
  }

  /** Answers through the front door; `seen` is given the page's own answer, if the page was reached. */
  function answer(input: string, init: TestRequestInit, seen: (own: Response) => void = () => {}): Promise<Response> {
    const { peer = TEST_PEER, ...requestInit } = init;
    const request = new Request(new URL(input, config.siteUrl), requestInit);
    const url = new URL(request.url);
    if (isApiPath(url.pathname)) return app.fetch(request, init);
    const client = clientAddress(peer, request.headers.get('x-forwarded-for') ?? undefined, config.trustProxy);
    const locals: ApiContext = { services: app.services, request: { id: randomUUID(), clientAddress: client, host: url.host } };
    const page = async () => {
      const own = await render(request, url, locals);
      seen(own.clone());
      return own;
    };
    return answerOnDemand(request, url, locals, app.composition.office, page, { requestIdSent: false });
  }

  return {
    fetch: (input, init = {}) => answer(input, init),
    async pageAnswer(input, init = {}) {
      let own: Response | undefined;
      await answer(input, init, (response) => (own = response));
      return own;
    },
    module: async <T>(file: string) => (await vite.ssrLoadModule(join(ROOT, file))) as T,
    async close() {
      await vite.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}
