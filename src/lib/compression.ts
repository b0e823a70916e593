/**
 * Content codings of what the server sends: which answers are worth compressing, how, and which
 * coding a request accepts. The prerendered files are compressed once (at build time by
 * `src/integrations/precompress.ts`, or at start-up when the running configuration changed their
 * bytes); on-demand answers as they are sent (`held-response.ts`).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';

const gzipAsync = promisify<Buffer, ZlibOptions, Buffer>(gzip);
const brotliAsync = promisify<Buffer, BrotliOptions, Buffer>(brotliCompress);

export type Coding = 'br' | 'gzip';

/** What the build compressed (`dist/precompressed/`): per file (its path under the client directory, with `/`), the ETag of the bytes and the codings kept. */
export type PrecompressedManifest = Record<string, { etag: string; codings: Coding[] }>;

/** The name of that record, beside the compressed files. */
export const MANIFEST = 'manifest.json';

/** The file holding coding `coding` of `rel` under the precompressed directory. */
export const precompressedFile = (dir: string, rel: string, coding: Coding) => join(dir, `${rel}.${coding === 'br' ? 'br' : 'gz'}`);

/** Codings in the server's order of preference: Brotli is 10–20% smaller than gzip on these files. */
export const CODINGS: readonly Coding[] = ['br', 'gzip'];

/**
 * Below this a coding saves less than a TCP segment, and can grow a tiny answer: a 300-byte problem
 * document gzipped is about 250 bytes, after a compressor's set-up per answer.
 */
export const MIN_COMPRESSIBLE_BYTES = 1024;

/** A coding is kept only if it saves at least this share of the bytes. */
const MIN_SAVING = 0.1;

/** Media types that are text underneath (fonts and images other than SVG are compressed already). */
const COMPRESSIBLE_TYPE = /^(text\/|application\/(json|problem\+json|schema\+json|xml|manifest\+json|linkset\+json|javascript)|image\/svg\+xml)/;

/** Whether an answer of `contentType` and `length` bytes is worth compressing. */
export function compressible(contentType: string | undefined, length: number): boolean {
  return length >= MIN_COMPRESSIBLE_BYTES && contentType !== undefined && COMPRESSIBLE_TYPE.test(contentType);
}

/** Compression settings: the smallest output at build time; at start-up and per answer, a fast one. */
export type Effort = 'build' | 'fast';

/** zlib's options for `coding` at `effort`, for a body of `length` bytes. */
export function codingOptions(coding: Coding, effort: Effort, length: number): ZlibOptions | BrotliOptions {
  if (coding === 'gzip') return { level: effort === 'build' ? 9 : 6 };
  return {
    params: {
      // Quality 11 takes about 2 s per MiB here, so only at build time; 5 is within 15% of its size at 1/80th of its time.
      [constants.BROTLI_PARAM_QUALITY]: effort === 'build' ? 11 : 5,
      [constants.BROTLI_PARAM_SIZE_HINT]: length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  };
}

/** `body` in `coding`, at `effort`. */
export function encode(body: Buffer, coding: Coding, effort: Effort): Buffer {
  const options = codingOptions(coding, effort, body.length);
  return coding === 'gzip' ? gzipSync(body, options as ZlibOptions) : brotliCompressSync(body, options as BrotliOptions);
}

/** The same, on zlib's thread pool (the build compresses many files at once). */
export function encodeAsync(body: Buffer, coding: Coding, effort: Effort): Promise<Buffer> {
  const options = codingOptions(coding, effort, body.length);
  return coding === 'gzip' ? gzipAsync(body, options as ZlibOptions) : brotliAsync(body, options as BrotliOptions);
}

/** Whether `encoded` saves enough over `body` to be sent in its place. */
export function worthSending(body: Buffer, encoded: Buffer): boolean {
  return encoded.length <= body.length * (1 - MIN_SAVING);
}

/** The strong validator of bytes: each coding of a file has its own, as RFC 9110 (8.8.3) requires. */
export function etagOf(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
}

const negotiated = new Map<string, Coding | undefined>();

/**
 * The coding to send for an `Accept-Encoding` header (RFC 9110, 12.5.3): the server's preferred
 * coding among those of the highest non-zero weight, `*` standing for any not named; none when the
 * header is absent or accepts neither. Clients send a handful of distinct headers, so each answer
 * is remembered.
 */
export function negotiate(acceptEncoding: string | undefined): Coding | undefined {
  if (!acceptEncoding) return undefined;
  if (negotiated.has(acceptEncoding)) return negotiated.get(acceptEncoding);
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name!.trim().toLowerCase();
    if (!coding) continue;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(coding, q === undefined ? 1 : Number(q) || 0);
  }
  const weight = (coding: Coding) => weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  let best: Coding | undefined;
  for (const coding of CODINGS) if (weight(coding) > 0 && (best === undefined || weight(coding) > weight(best))) best = coding;
  if (negotiated.size >= 256) negotiated.clear();
  negotiated.set(acceptEncoding, best);
  return best;
}
