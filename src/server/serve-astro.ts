/**
 * Handing a request to Astro (the adapter's middleware-mode handler): the API's route files and the
 * on-demand pages. What Astro does not route is the site's 404 page; a request body goes as the
 * adapter's `req.body`, which it reads in place of the request stream; what Astro answers is sent
 * whole, in one write, and compressed when the client accepts it and it pays (`held-response.ts`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { RequestInfo } from '../http/context.ts';
import type { PublicServices } from '../roles/index.ts';
import type { SecurityHeaders } from '../http/security-headers.ts';
import { MAX_BODY_BYTES } from '../service-facts.ts';
import { HeldResponse } from './held-response.ts';
import type { RequestBody } from './request-body.ts';
import { serveFile, setHeaders } from './serve-static.ts';
import type { StaticFile } from './static-files.ts';

/** Astro's middleware-mode handler, as `@astrojs/node/server.js` exports it. */
export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: () => void, locals: object) => Promise<void>;

/** Hands one request to Astro; the promise settles when Astro has answered it. */
export type HandToAstro = (req: IncomingMessage, res: ServerResponse, request: RequestInfo, body: RequestBody | undefined) => Promise<void>;

export function handToAstro(deps: {
  astro: AstroHandler;
  services: PublicServices;
  notFoundPage: StaticFile | undefined;
  security: SecurityHeaders;
  logger: Logger;
}): HandToAstro {
  const { astro, services, notFoundPage, security, logger } = deps;
  const toAstro = (req: IncomingMessage, res: ServerResponse, request: RequestInfo, content: RequestBody | Buffer | undefined) => {
    if (content) Object.assign(req, { body: content });
    if (res instanceof HeldResponse) res.hold();
    return astro(
      req,
      res,
      () => {
        if (notFoundPage) return serveFile(req, res, request.id, notFoundPage, 404);
        setHeaders(res, security.file);
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      },
      // The middleware's `locals`: the services with the request, so that it need not wait for them.
      { request, services },
    ).catch((err: unknown) => {
      logger.error({ reqId: request.id, err }, 'astro handler failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
  return (req, res, request, body) => {
    // A body of announced length within the limit goes to Astro as bytes (the adapter then builds
    // its web request at once); a chunked or larger one as a source the route reads, and refuses
    // past the limit without reading it all.
    if (body && req.headers['transfer-encoding'] === undefined && Number(req.headers['content-length']) <= MAX_BODY_BYTES) {
      return body.whole().then((bytes) => toAstro(req, res, request, bytes ?? body));
    }
    return toAstro(req, res, request, body);
  };
}
