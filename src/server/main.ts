/**
 * `npm start`: runs the server bundled into the build (`dist/server/server.mjs`, see
 * `src/server/start.ts`). It imports nothing of the project's own, so that every module the server
 * uses is loaded once, from the bundle.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../../dist/server/server.mjs', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write(`The site is not built: ${bundle} is missing. Run \`npm run build\` first.\n`);
  process.exit(1);
}
const { start } = (await import(bundle)) as { start(): Promise<void> };
await start();
