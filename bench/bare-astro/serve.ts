/**
 * Serves the bare Astro endpoint (`npm run bench` builds it into bench/bare-astro/dist) the way our
 * server hands requests to Astro: a bare node:http server calling the adapter's middleware-mode
 * handler, with nothing of ours around it.
 */
import { createServer } from 'node:http';

const { handler } = (await import(new URL('./dist/server/entry.mjs', import.meta.url).href)) as {
  handler: (req: unknown, res: unknown, next: () => void, locals: object) => Promise<void>;
};
const server = createServer((req, res) => {
  void handler(req, res, () => res.writeHead(404).end(), {});
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port: (server.address() as { port: number }).port, pid: process.pid })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
