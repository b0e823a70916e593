/**
 * Serving the prerendered files held in memory (`static-files.ts`): the hot path, each answer's
 * whole header block written at once, and what a file answers to a method it does not serve.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SecurityHeaders } from '../http/security-headers.ts';
import type { StaticFile } from './static-files.ts';

/** Sends `file` (with `status`, 200 unless said), or a 304 when the client holds its ETag. */
export function serveFile(req: IncomingMessage, res: ServerResponse, requestId: string, file: StaticFile, status = 200): void {
  if (status === 200 && req.headers['if-none-match'] === file.etag) {
    res.writeHead(304, [...file.head304, 'X-Request-Id', requestId]).end();
    return;
  }
  res.writeHead(status, [...file.head200, 'X-Request-Id', requestId]).end(req.method === 'HEAD' ? undefined : file.body);
}

/** A file asked for with a method other than GET or HEAD: 405 with `Allow`. */
export function refuseMethod(res: ServerResponse, security: SecurityHeaders): void {
  setHeaders(res, security.file);
  res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
}

/** Sets every header of `headers` on `res`. */
export function setHeaders(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
  for (const name in headers) res.setHeader(name, headers[name]!);
}
