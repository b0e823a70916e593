/**
 * `/openapi.json`: bundled at build time by Redocly from `spec/openapi.yaml`, the one source of
 * truth, with `servers` and every example link pointing at this deployment's `SITE_URL`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The source of the description; paths resolve from the project root, where builds run. */
export const SPEC_PATH = resolve('spec/openapi.yaml');
/** The origin the source's examples are written with, replaced by `SITE_URL` when bundling. */
const SOURCE_ORIGIN = 'http://localhost:4321';

/** Runs the project's Redocly CLI with telemetry off. */
export function redocly(args: string[]): void {
  execFileSync(resolve('node_modules/.bin/redocly'), args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', SCARF_ANALYTICS: 'false' },
  });
}

function rebase<T>(value: T, siteUrl: string): T {
  if (typeof value === 'string') return value.replaceAll(SOURCE_ORIGIN, siteUrl) as T;
  if (Array.isArray(value)) return value.map((v) => rebase(v, siteUrl)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rebase(v, siteUrl)])) as T;
  return value;
}

const cache = new Map<string, Record<string, any>>();

/** The bundled OpenAPI document for a deployment at `siteUrl`. */
export function openApiDocument(siteUrl: string): Record<string, any> {
  const cached = cache.get(siteUrl);
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  try {
    const out = join(dir, 'openapi.json');
    redocly(['bundle', SPEC_PATH, '--ext', 'json', '-o', out]);
    const doc = rebase(JSON.parse(readFileSync(out, 'utf8')), siteUrl);
    doc.servers = [{ url: siteUrl, description: 'This deployment' }];
    cache.set(siteUrl, doc);
    return doc;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
