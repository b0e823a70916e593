/**
 * What each built file is sent as: its media type by extension, and the discovery documents'
 * exact headers. One table for both servers: our server sends the files with them
 * (`src/server/static-files.ts`), and `npm run dev`, which renders the same documents on each
 * request, gives its answers the same (`src/http/dev-headers.ts`).
 */
import { API_CATALOG_MEDIA_TYPE, LEAD_SCHEMA_PATH, SCHEMA_MEDIA_TYPE } from '../service-facts.ts';

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.xml': 'application/xml',
};

/** Headers of the public discovery documents: exact media types, open to every origin, cacheable. */
export function discoveryDocumentHeaders(siteUrl: string): Record<string, Record<string, string>> {
  const shared = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=300' };
  return {
    '/.well-known/api-catalog': {
      ...shared,
      'Content-Type': API_CATALOG_MEDIA_TYPE,
      Link: `<${siteUrl}/.well-known/api-catalog>; rel="api-catalog"`,
    },
    '/openapi.json': { ...shared, 'Content-Type': 'application/json' },
    [LEAD_SCHEMA_PATH]: { ...shared, 'Content-Type': SCHEMA_MEDIA_TYPE },
    '/llms.txt': { ...shared, 'Content-Type': 'text/plain; charset=utf-8' },
    '/robots.txt': { ...shared, 'Content-Type': 'text/plain; charset=utf-8' },
  };
}

/** The headers the built file `file` is sent with at URL `path`, before the security headers. */
export function fileHeaders(path: string, file: string, siteUrl: string, cacheControl: string): Record<string, string> {
  const extension = /\.[a-z0-9]+$/i.exec(file)?.[0].toLowerCase() ?? '';
  return discoveryDocumentHeaders(siteUrl)[path] ?? { 'Content-Type': CONTENT_TYPES[extension] ?? 'application/octet-stream', 'Cache-Control': cacheControl };
}
