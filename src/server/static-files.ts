/**
 * The built site's static files (prerendered pages, discovery documents, assets), read into memory
 * once at start-up: every request for one is a map lookup, its whole header block prepared.
 *
 * The documents were rendered at build time with the build's `SITE_URL` and configuration. One
 * build serves any origin and configuration: text files are rendered again with the running
 * server's (`LoadOptions.render`), and their ETag and Content-Security-Policy are computed from
 * the bytes that are served.
 *
 * Each text file worth it is also held in Brotli and gzip, each coding with its own ETag and every
 * representation saying `Vary: Accept-Encoding`: the build's compression (`dist/precompressed/`, the
 * smallest) when the served bytes are the build's, or compressed here once when the running
 * configuration changed them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileHeaders } from '../http/file-types.ts';
import { pageCsp, type SecurityHeaders } from '../http/security-headers.ts';
import {
  CODINGS,
  compressible,
  encode,
  etagOf,
  MANIFEST,
  precompressedFile,
  worthSending,
  type Coding,
  type PrecompressedManifest,
} from '../lib/compression.ts';

/** One representation of a file ready to send: its bytes, and its header block flattened for `writeHead`. */
export interface Representation {
  body: Buffer;
  etag: string;
  /** Every header of a 200 (Content-Length included). */
  head200: readonly string[];
  /** Every header of a 304. */
  head304: readonly string[];
}

/** One file: its identity representation, and its content codings when it has any. */
export interface StaticFile extends Representation {
  isHtml: boolean;
  codings?: Partial<Record<Coding, Representation>>;
}

/** Files whose text may name the site's origin, and is rewritten for the running one. */
const TEXT_TYPE = /^(text\/|application\/(json|xml|manifest\+json|linkset\+json|schema\+json))|^image\/svg/;

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
  /** The build's compressed files (`src/integrations/precompress.ts`), when there are any. */
  precompressedDir?: string;
}

/** The build's manifest of compressed files, or none. */
function readManifest(dir: string | undefined): PrecompressedManifest {
  if (!dir) return {};
  try {
    return JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as PrecompressedManifest;
  } catch {
    // A build without them (or a test's directory of files): every coding is made here.
    return {};
  }
}

/** The codings of `body` (file `rel`) worth sending: the build's when it compressed these very bytes, else made now. */
function codingsOf(rel: string, body: Buffer, etag: string, manifest: PrecompressedManifest, dir: string | undefined): Partial<Record<Coding, Buffer>> {
  const built = manifest[rel];
  const codings: Partial<Record<Coding, Buffer>> = {};
  for (const coding of CODINGS) {
    if (built?.etag === etag) {
      if (built.codings.includes(coding)) codings[coding] = readFileSync(precompressedFile(dir!, rel, coding));
      continue;
    }
    const encoded = encode(body, coding, 'fast');
    if (worthSending(body, encoded)) codings[coding] = encoded;
  }
  return codings;
}

/** A representation of `body` with `headers` (ETag and Content-Length added; a 304 carries neither length nor coding). */
function representation(headers: Record<string, string>, body: Buffer, etag: string): Representation {
  const { 'Content-Encoding': coding, ...rest } = headers;
  const head304 = Object.entries({ ...rest, ETag: etag }).flat();
  const head200 = [...(coding ? ['Content-Encoding', coding] : []), ...head304, 'Content-Length', String(body.length)];
  return { body, etag, head200, head304 };
}

/** Loads every file under `clientDir` into a map from URL path to file. */
export function loadStaticFiles(clientDir: string, siteUrl: string, { render, security, precompressedDir }: LoadOptions): Map<string, StaticFile> {
  const manifest = readManifest(precompressedDir);
  const files = new Map<string, StaticFile>();
  for (const full of walk(clientDir)) {
    const rel = relative(clientDir, full);
    const ext = extname(rel);
    const isHtml = ext === '.html';
    let codings: Partial<Record<Coding, Buffer>> | undefined;
    for (const path of urlPaths(rel)) {
      const cache = path.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate';
      const headers = fileHeaders(path, rel, siteUrl, cache);
      let body = readFileSync(full);
      if (TEXT_TYPE.test(headers['Content-Type']!)) {
        const text = body.toString('utf8');
        const rendered = render(text);
        if (rendered !== text) body = Buffer.from(rendered);
      }
      const etag = etagOf(body);
      // The same bytes for each path a file answers to: compressed once.
      codings ??= compressible(headers['Content-Type'], body.length) ? codingsOf(rel.split(sep).join('/'), body, etag, manifest, precompressedDir) : {};
      const coded = Object.keys(codings) as Coding[];
      const all = {
        ...(isHtml ? security.html : security.file),
        ...headers,
        ...(isHtml && { 'Content-Security-Policy': pageCsp(body.toString('utf8'), path) }),
        // Caches must keep each coding apart, the identity included.
        ...(coded.length > 0 && { Vary: 'Accept-Encoding' }),
      };
      const file: StaticFile = { ...representation(all, body, etag), isHtml };
      if (coded.length > 0) {
        file.codings = Object.fromEntries(
          coded.map((coding) => [coding, representation({ ...all, 'Content-Encoding': coding }, codings![coding]!, etagOf(codings![coding]!))]),
        );
      }
      files.set(path, file);
    }
  }
  return files;
}
