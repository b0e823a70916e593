/**
 * `npm start`: reads the configuration, opens the lead store and the rate limiter, loads the built
 * site, and serves it on HOST:PORT until SIGTERM or SIGINT, then drains and closes cleanly.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, getConfig, type Config } from '../config.ts';
import { aliasHeaders } from '../http/headers.ts';
import { createLimiter } from '../limiter/index.ts';
import { createLeadStore } from '../store/index.ts';
import { createAppServer, type AstroHandler } from './app-server.ts';
import { createLogger } from './logger.ts';
import { securityHeaders } from './security-headers.ts';
import { loadStaticFiles } from './static-files.ts';
import { checkSunsetNotice } from './sunset.ts';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const SHUTDOWN_GRACE_MS = 10_000;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let config: Config;
try {
  config = getConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(err.message);
  throw err;
}

const entry = `${DIST}server/entry.mjs`;
if (!existsSync(entry)) fail(`The site is not built: ${entry} is missing. Run \`npm run build\` first.`);

const logger = createLogger(config.logLevel);
const store = await createLeadStore(config).catch((err: unknown) => fail(`Cannot open the lead store named by DATABASE_URL: ${(err as Error).message}`));
const sunsetProblem = await checkSunsetNotice(config, store, new Date());
if (sunsetProblem) {
  await store.close();
  fail(sunsetProblem);
}
const limits = createLimiter(config);
const { handler } = (await import(entry)) as { handler: AstroHandler };
const staticFiles = loadStaticFiles(`${DIST}client`, config.siteUrl);

const server = createAppServer({
  services: { config, store, limiter: limits.limiter, logger, aliasHeaders: Object.freeze(aliasHeaders(config)) },
  astro: handler,
  staticFiles,
  security: securityHeaders(config),
  notFoundPage: staticFiles.get('/404.html'),
});

const onListenError = (err: Error) => fail(`Cannot listen on ${config.host}:${config.port}: ${err.message}`);
server.once('error', onListenError);
server.listen(config.port, config.host, () => {
  server.off('error', onListenError);
  // After start-up an accept error (EMFILE under load, say) is logged, not fatal.
  server.on('error', (err) => logger.error({ err: { name: err.name, message: err.message } }, 'server error'));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ host: config.host, port, pid: process.pid, store: store.kind, limiter: config.redisUrl ? 'redis' : 'memory', siteUrl: config.siteUrl }, 'listening');
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: finishing requests in flight');
  const forced = setTimeout(() => {
    logger.warn('requests still in flight after the grace period; closing them');
    server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  forced.unref();
  // Stop accepting connections; idle keep-alive sockets are closed now, busy ones after their response.
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  const closed = await Promise.all([store.close(), limits.close()]).then(() => true, (err: Error) => {
    logger.error({ err: { name: err.name, message: err.message } }, 'closing the store or the limiter failed');
    return false;
  });
  logger.info('stopped');
  // Everything is closed; a client library's leftover timer must not keep the process alive.
  logger.flush(() => process.exit(closed ? 0 : 1));
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
