/**
 * The HTTP server that owns every response: request id, security headers, one log line per request,
 * static files from memory, then Astro (in middleware mode) for the on-demand API routes, and
 * problem documents for anything under /api/ that Astro does not route.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { clientAddress } from '../http/client-address.ts';
import type { AppServices } from '../http/context.ts';
import { Problem, problemResponse } from '../problems/problem.ts';
import type { SecurityHeaders } from './security-headers.ts';
import type { StaticFile } from './static-files.ts';

/** Astro's middleware-mode handler, as `dist/server/entry.mjs` exports it. */
export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: () => void, locals: object) => Promise<void>;

export interface AppServerOptions {
  services: AppServices;
  astro: AstroHandler;
  staticFiles: Map<string, StaticFile>;
  security: SecurityHeaders;
  /** The prerendered 404 page, when the site has one. */
  notFoundPage?: StaticFile;
}

/** Timeouts chosen so that slow or idle clients cannot hold the server (Node's defaults are minutes). */
export const SERVER_TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 } as const;

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/** Writes a web `Response` to a Node response. */
async function send(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) res.setHeader(name, value);
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

function setHeaders(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
  for (const name in headers) res.setHeader(name, headers[name]!);
}

/** Creates the server; `listen` is the caller's. */
export function createAppServer(options: AppServerOptions): Server {
  const { services, astro, staticFiles, security, notFoundPage } = options;
  const { config, logger } = services;

  const problem = (res: ServerResponse, requestId: string, p: Problem) =>
    send(res, problemResponse(p, { siteUrl: config.siteUrl, requestId }));

  function serveFile(req: IncomingMessage, res: ServerResponse, file: StaticFile, status = 200): void {
    setHeaders(res, file.isHtml ? security.html : security.file);
    setHeaders(res, file.headers);
    if (status === 200 && req.headers['if-none-match'] === file.etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.statusCode = status;
    res.setHeader('Content-Length', file.body.length);
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  const server = createServer({ ...SERVER_TIMEOUTS }, (req, res) => {
    const started = performance.now();
    const requestId = randomUUID();
    res.setHeader('X-Request-Id', requestId);
    const rawPath = (req.url ?? '/').split('?', 1)[0]!;
    res.once('close', () => {
      const status = res.statusCode;
      const line = { reqId: requestId, method: req.method, path: rawPath, status, durationMs: Math.round((performance.now() - started) * 10) / 10 };
      if (status >= 500) logger.error(line, 'request');
      else logger.info(line, 'request');
    });

    let path: string;
    try {
      path = decodeURIComponent(rawPath);
    } catch {
      setHeaders(res, security.api);
      void problem(res, requestId, new Problem('bad_request', 'The request path has an invalid percent-encoding.'));
      return;
    }

    if (isApiPath(path)) {
      setHeaders(res, security.api);
      const locals = {
        services,
        request: { id: requestId, clientAddress: clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], config.trustProxy) },
      };
      const notFound = () => void problem(res, requestId, new Problem('not_found', `There is no API resource at ${rawPath}.`));
      astro(req, res, notFound, locals).catch((err: unknown) => {
        logger.error({ reqId: requestId, err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, 'astro handler failed');
        if (!res.headersSent) void problem(res, requestId, new Problem('internal_error', 'An unexpected failure happened on the server.'));
      });
      return;
    }

    const file = staticFiles.get(path);
    if (file) {
      if (req.method === 'GET' || req.method === 'HEAD') return serveFile(req, res, file);
      setHeaders(res, security.file);
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    // No static file: let Astro try its on-demand pages, then answer 404 with the site's page.
    astro(req, res, () => {
      if (notFoundPage) return serveFile(req, res, notFoundPage, 404);
      setHeaders(res, security.file);
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
    }, { services, request: { id: requestId, clientAddress: '' } }).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  return server;
}
