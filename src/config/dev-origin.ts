/**
 * Where `npm run dev` really listens. Astro moves to the next free port when the configured one is
 * taken (4322 when 4321 is): its `astro:server:start` hook (`src/integrations/dev-origin.ts`)
 * records the port here, and with `SITE_URL` unset the site's own forms are accepted from that
 * origin. Nothing records a port under `npm start`, whose check stays `SITE_URL`'s origin alone;
 * a set `SITE_URL` rules under both.
 * Kept on `globalThis`: Astro loads its integrations and the routes in two module graphs of one process.
 */
import type { Config } from './config.ts';

const DEV_PORT = Symbol.for('lead-intake-api.dev-port');
type Holder = { [DEV_PORT]?: number };

/** Records the port `astro dev` listens on (`undefined`: none, as under `npm start`). */
export function recordDevPort(port: number | undefined): void {
  (globalThis as Holder)[DEV_PORT] = port;
}

/** The names a browser on this machine reaches dev by. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins the site's pages are loaded from, which its forms accept submissions from:
 * `SITE_URL`'s; under `npm run dev` with `SITE_URL` unset, the ones dev listens on instead (HOST
 * is then one of this machine's own, as the configuration requires): every name of this machine's
 * loopback (`localhost`, `127.0.0.1`, `[::1]`, whichever an editor typed) and HOST, at the port dev
 * really took, whatever `--host` it was given.
 */
export function siteOrigins(config: Pick<Config, 'siteUrl' | 'siteUrlSet' | 'host'>): readonly string[] {
  const port = (globalThis as Holder)[DEV_PORT];
  if (port === undefined || config.siteUrlSet) return [new URL(config.siteUrl).origin];
  const host = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
  return [...new Set([...LOOPBACK_NAMES.map((name) => `http://${name}:${port}`), new URL(`http://${host}:${port}`).origin])];
}
