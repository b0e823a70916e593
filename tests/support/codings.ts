/** What the compression suites share: the built text files, and how each coding is decoded. */
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ROOT } from './server.ts';

/** Decoders of the codings the server sends. */
export const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;

/** The URL path of every built file whose media type is text (what the server compresses when it pays). */
export function textPaths(): string[] {
  const client = join(ROOT, 'dist/client');
  return readdirSync(client, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(html|css|js|json|txt|svg|xml|webmanifest)$|api-catalog$/.test(e.name))
    .map((e) => `/${relative(client, join(e.parentPath, e.name)).split(sep).join('/')}`.replace(/\/index\.html$/, '') || '/');
}
