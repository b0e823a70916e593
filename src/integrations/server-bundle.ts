/**
 * Bundles our `node:http` server into Astro's server build: `src/server/start.ts` becomes
 * `dist/server/server.mjs` beside the adapter's `entry.mjs`, sharing its chunks. The server and
 * the routes then run on one module graph (one configuration, one store, one `Problem` class), as
 * the adapter's own entry exports `handler` and `startServer` from one graph. Other entries of the
 * server (its backup worker thread) are emitted beside it the same way.
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** The integration: each entry is emitted as `dist/server/<file name>` in `astro build` only. */
export function serverBundle(entries: Record<string, URL>): AstroIntegration {
  return {
    name: 'lead-intake:server-bundle',
    hooks: {
      'astro:config:setup': ({ command, updateConfig }) => {
        if (command !== 'build') return;
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'lead-intake:server-bundle',
                // The server environment only: the client and prerender builds know nothing of it.
                applyToEnvironment: (environment) => environment.name === 'ssr',
                buildStart() {
                  for (const [fileName, entry] of Object.entries(entries)) this.emitFile({ type: 'chunk', id: fileURLToPath(entry), fileName });
                },
              },
            ],
          },
        });
      },
    },
  };
}
