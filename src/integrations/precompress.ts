/**
 * Compresses the built site's files once, at build time, with the settings that give the smallest
 * output (Brotli at quality 11 takes seconds per megabyte, too slow for start-up): each file worth
 * it gets a `.br` and a `.gz` under `dist/precompressed/`, and `manifest.json` records the ETag of
 * the bytes each was made from. The server serves them when the file it renders for its
 * configuration is those same bytes, and compresses the file itself at start-up otherwise
 * (`src/server/static-files.ts`).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import {
  CODINGS,
  encodeAsync,
  etagOf,
  MANIFEST,
  MIN_COMPRESSIBLE_BYTES,
  precompressedFile,
  worthSending,
  type Coding,
  type PrecompressedManifest,
} from '../lib/compression.ts';

/** Compresses every file of `clientDir` into `outDir` (on zlib's thread pool, every file at once). */
export async function precompress(clientDir: string, outDir: string): Promise<PrecompressedManifest> {
  rmSync(outDir, { recursive: true, force: true });
  const manifest: PrecompressedManifest = {};
  const files = readdirSync(clientDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  await Promise.all(
    files.map(async (entry) => {
      const full = join(entry.parentPath, entry.name);
      const body = readFileSync(full);
      // Images and fonts are compressed already: their codings save too little and are dropped.
      if (body.length < MIN_COMPRESSIBLE_BYTES) return;
      const rel = relative(clientDir, full).split(sep).join('/');
      const kept: Coding[] = [];
      for (const coding of CODINGS) {
        const encoded = await encodeAsync(body, coding, 'build');
        if (!worthSending(body, encoded)) continue;
        const out = precompressedFile(outDir, rel, coding);
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, encoded);
        kept.push(coding);
      }
      if (kept.length > 0) manifest[rel] = { etag: etagOf(body), codings: kept };
    }),
  );
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, MANIFEST), `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}

/** The integration: `dist/precompressed/` beside `dist/client/`, after every build. */
export function precompressIntegration(): AstroIntegration {
  return {
    name: 'lead-intake:precompress',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const client = fileURLToPath(dir);
        const manifest = await precompress(client, join(client, '..', 'precompressed'));
        logger.info(`${Object.keys(manifest).length} files compressed (Brotli, gzip) into dist/precompressed/`);
      },
    },
  };
}
