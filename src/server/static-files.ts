/**
 * The built site's static files (prerendered pages, discovery documents, assets), read into memory
 * once at start-up: every request for one is a map lookup, its whole header block prepared.
 *
 * The documents were rendered at build time with the build's `SITE_URL` and configuration. One
 * build serves any origin and configuration: text files are rendered again with the running
 * server's (`LoadOptions.render`), and their ETag and Content-Security-Policy are computed from
 * the bytes that are served.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { API_CATALOG_MEDIA_TYPE } from '../discovery/api-catalog.ts';
import { pageCsp, type SecurityHeaders } from '../http/security-headers.ts';

/** One file ready to send: its body, and its header block flattened for `writeHead`. */
export interface StaticFile {
  body: Buffer;
  etag: string;
  isHtml: boolean;
  /** Every header of a 200 (Content-Length included). */
  head200: readonly string[];
  /** Every header of a 304. */
  head304: readonly string[];
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

/** Files whose text may name the site's origin, and is rewritten for the running one. */
const TEXT_TYPE = /^(text\/|application\/(json|xml|manifest\+json|linkset\+json))|^image\/svg/;

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
    '/llms.txt': { ...shared, 'Content-Type': 'text/plain; charset=utf-8' },
    '/robots.txt': { ...shared, 'Content-Type': 'text/plain; charset=utf-8' },
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

export interface LoadOptions {
  /**
   * Renders a text file again for this server: the build's `SITE_URL` becomes the running one,
   * and configured values take their place (`src/components/configured-values.ts`).
   */
  render: (text: string) => string;
  security: SecurityHeaders;
}

/** Loads every file under `clientDir` into a map from URL path to file. */
export function loadStaticFiles(clientDir: string, siteUrl: string, { render, security }: LoadOptions): Map<string, StaticFile> {
  const documents = discoveryDocumentHeaders(siteUrl);
  const files = new Map<string, StaticFile>();
  for (const full of walk(clientDir)) {
    const rel = relative(clientDir, full);
    const ext = extname(rel);
    const isHtml = ext === '.html';
    for (const path of urlPaths(rel)) {
      const cache = path.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate';
      const headers = documents[path] ?? { 'Content-Type': CONTENT_TYPES[ext] ?? 'application/octet-stream', 'Cache-Control': cache };
      let body = readFileSync(full);
      if (TEXT_TYPE.test(headers['Content-Type']!)) {
        const text = body.toString('utf8');
        const rendered = render(text);
        if (rendered !== text) body = Buffer.from(rendered);
      }
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      const all = {
        ...(isHtml ? security.html : security.file),
        ...headers,
        ...(isHtml && { 'Content-Security-Policy': pageCsp(body.toString('utf8'), path) }),
        ETag: etag,
      };
      const flat = Object.entries(all).flat();
      files.set(path, { body, etag, isHtml, head200: [...flat, 'Content-Length', String(body.length)], head304: flat });
    }
  }
  return files;
}
