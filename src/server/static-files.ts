/**
 * The built site's static files (prerendered pages, discovery documents, assets), read into memory
 * once at start-up: every request for one is a map lookup, with its headers and ETag precomputed.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { API_CATALOG_MEDIA_TYPE } from '../discovery/api-catalog.ts';
import { pageCsp } from './security-headers.ts';

/** One file ready to send. */
export interface StaticFile {
  body: Buffer;
  headers: Record<string, string>;
  etag: string;
  isHtml: boolean;
}

const CONTENT_TYPES: Record<string, string> = {
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
  const catalogLink = `<${siteUrl}/.well-known/api-catalog>; rel="api-catalog"`;
  return {
    '/.well-known/api-catalog': {
      ...shared,
      'Content-Type': API_CATALOG_MEDIA_TYPE,
      Link: catalogLink,
    },
    '/openapi.json': { ...shared, 'Content-Type': 'application/json' },
    '/llms.txt': { ...shared, 'Content-Type': 'text/plain; charset=utf-8' },
  };
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/** URL paths a file answers to: `/developers/index.html` answers `/developers` and `/developers/`. */
function urlPaths(file: string): string[] {
  const path = `/${file.split(sep).join('/')}`;
  if (path === '/index.html') return ['/'];
  if (path.endsWith('/index.html')) {
    const dir = path.slice(0, -'/index.html'.length);
    return [dir, `${dir}/`];
  }
  return [path];
}

/** Loads every file under `clientDir` into a map from URL path to file. */
export function loadStaticFiles(clientDir: string, siteUrl: string): Map<string, StaticFile> {
  const documents = discoveryDocumentHeaders(siteUrl);
  const files = new Map<string, StaticFile>();
  for (const full of walk(clientDir)) {
    const rel = relative(clientDir, full);
    const body = readFileSync(full);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const ext = extname(rel);
    for (const path of urlPaths(rel)) {
      const cache = path.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate';
      const isHtml = ext === '.html';
      const headers = documents[path] ?? { 'Content-Type': CONTENT_TYPES[ext] ?? 'application/octet-stream', 'Cache-Control': cache };
      const csp: Record<string, string> = isHtml ? { 'Content-Security-Policy': pageCsp(body.toString('utf8')) } : {};
      files.set(path, { body, etag, headers: { ...headers, ...csp, ETag: etag }, isHtml });
    }
  }
  return files;
}
