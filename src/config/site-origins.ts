/**
 * The origins the site's pages are loaded from, which its forms (the customers' and the office's)
 * accept submissions from. A set `SITE_URL` rules alone, under `npm start` and `npm run dev` alike.
 * Unset, the site runs on this machine (the configuration then requires a loopback HOST), and a
 * browser reaches it by whichever loopback name the person typed: `localhost`, `127.0.0.1` or
 * `[::1]` (and HOST), at the port the server really listens on. Under `npm start` that is PORT, or
 * the one the system gave for `PORT=0` (`src/server/start.ts` records it); under `npm run dev` the
 * one Astro took, the next free one when PORT is taken (`src/integrations/dev-origin.ts`).
 * Kept on `globalThis`: Astro loads its integrations and the routes in two module graphs of one process.
 */
import type { Config } from './config.ts';

const LISTENING_PORT = Symbol.for('lead-intake-api.listening-port');
type Holder = { [LISTENING_PORT]?: number };

/** Records the port the server (or `astro dev`) really listens on; `undefined` forgets it. */
export function recordListeningPort(port: number | undefined): void {
  (globalThis as Holder)[LISTENING_PORT] = port;
}

/** The names a browser on this machine reaches it by. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** The origins the site's own forms may be sent from (see above). */
export function siteOrigins(config: Pick<Config, 'siteUrl' | 'siteUrlSet' | 'host' | 'port'>): readonly string[] {
  if (config.siteUrlSet) return [new URL(config.siteUrl).origin];
  const recorded = (globalThis as Holder)[LISTENING_PORT];
  const port = recorded ?? (config.port === 0 ? new URL(config.siteUrl).port : config.port);
  const host = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
  return [...new Set([...LOOPBACK_NAMES.map((name) => `http://${name}:${port}`), new URL(`http://${host}:${port}`).origin])];
}
