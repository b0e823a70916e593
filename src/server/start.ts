/**
 * The production entry, bundled by `src/integrations/server-bundle.ts` beside Astro's own entry
 * (`dist/server/server.mjs` next to `entry.mjs`), so that the server and the routes share one
 * module graph: one configuration, one store, one `Problem` class. `start()` opens the services,
 * loads the built site, serves it on HOST:PORT until SIGTERM or SIGINT, then drains and closes.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { handler } from '@astrojs/node/server.js';
import { ConfigError, type Config } from '../config/config.ts';
import { recordListeningPort } from '../config/site-origins.ts';
import { fillConfigured } from '../site/configured-values.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { backupInWorker, startBackups } from '../jobs/backups.ts';
import { startOfficeMail, type OfficeMailJob } from '../jobs/office-mail.ts';
import { startPurges } from '../jobs/purge.ts';
import { plural } from '../lib/text.ts';
import { officeMessage } from '../mail/office-message.ts';
import { smtpMailer } from '../mail/smtp.ts';
import { composition, StartupError, type Composition } from '../app/services.ts';
import { createAppServer, type AstroHandler } from './app-server.ts';
import { listenFailure } from './listen-error.ts';
import { loadStaticFiles } from './static-files.ts';

/** The prerendered site, beside this bundle, and its compressed files (`src/integrations/precompress.ts`). */
const CLIENT_DIR = fileURLToPath(new URL('../client', import.meta.url));
const PRECOMPRESSED_DIR = fileURLToPath(new URL('../precompressed', import.meta.url));
/** The backup worker thread's entry, bundled beside this one (`src/server/backup-worker.ts`). */
const BACKUP_WORKER = join(dirname(fileURLToPath(import.meta.url)), 'backup-worker.mjs');
/** The `SITE_URL` the documents were rendered with (Astro's `site`, fixed at build time). */
const BUILT_FOR = new URL(import.meta.env.SITE).origin;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** Starts the server; a configuration or store the server cannot start with ends the process with a message. */
export async function start(): Promise<void> {
  let opened: Composition;
  try {
    opened = await composition();
  } catch (err) {
    if (err instanceof ConfigError || err instanceof StartupError) fail(err.message);
    throw err;
  }
  const { config, logger } = opened.services;
  // Each job gets its role of the store, an object of those methods alone.
  const { jobs } = opened;
  const security = securityHeaders(config);
  const { server, stop } = createAppServer({
    services: opened.services,
    astro: handler as AstroHandler,
    staticFiles: loadStaticFiles(CLIENT_DIR, config.siteUrl, {
      render: (text) => fillConfigured(text.replaceAll(BUILT_FOR, config.siteUrl), config),
      security,
      precompressedDir: PRECOMPRESSED_DIR,
    }),
    security,
  });

  // Background work of the server process: purges past retention (at start-up, then daily), the office's
  // e-mail about each new lead when SMTP_URL is set, and backups of the SQLite store when BACKUP_DIR is.
  const purges = startPurges({ store: jobs.purge, config, logger });
  const backups =
    config.backups && config.database.kind === 'sqlite'
      ? startBackups({ settings: config.backups, logger, backup: backupInWorker(BACKUP_WORKER, config.database.path) })
      : undefined;
  let officeMail: OfficeMailJob | undefined;
  if (config.mail) {
    const { company } = await import('../site/company.ts');
    const { name, timeZone, serviceArea } = await company();
    const settings = { from: config.mail.from, to: config.mail.office, siteUrl: config.siteUrl, company: { name, timeZone, serviceArea } };
    officeMail = startOfficeMail({ store: jobs.outbox, logger, mailer: smtpMailer(config.mail.smtp), compose: (lead) => officeMessage(lead, settings) });
  }

  const onListenError = (err: Error) => fail(listenFailure(err, config.host, config.port));
  server.once('error', onListenError);
  server.listen(config.port, config.host, () => {
    server.off('error', onListenError);
    // After start-up an accept error (EMFILE under load, say) is logged, not fatal.
    server.on('error', (err) => logger.error({ err }, 'server error'));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    // With SITE_URL unset, the forms are accepted from this port at every loopback name.
    recordListeningPort(port);
    logger.info(
      {
        host: config.host,
        port,
        pid: process.pid,
        store: opened.storeKind,
        limiter: config.redisUrl ? 'redis' : 'memory',
        officeMail: config.mail ? 'on' : 'off',
        backups: config.backups ? config.backups.dir : 'off',
        siteUrl: config.siteUrl,
      },
      'listening',
    );
    // Besides the JSON log, one line for the person who just typed `npm start`.
    process.stderr.write(`${startupLine(config, port)}\n`);
  });

  let stopping = false;
  async function shutdown(signal: string): Promise<void> {
    // `npm start` forwards the signal it gets to the server, which may have had it already (a
    // process group's signal): one stop, whatever the number of signals.
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    // Every request begun is answered (with `Connection: close`) before anything closes.
    if ((await stop()) === 'forced') logger.warn('requests still in flight after the grace period; their connections were closed');
    await Promise.all([purges.stop(), officeMail?.stop(), backups?.stop()]);
    const closed = await opened.close().then(
      () => true,
      (err: Error) => {
        logger.error({ err }, 'closing the store or the limiter failed');
        return false;
      },
    );
    logger.info('stopped');
    // Everything is closed; a client library's leftover timer must not keep the process alive.
    logger.flush(() => process.exit(closed ? 0 : 1));
  }
  // `on`, not `once`: a second signal while draining must not kill the process by default.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** What a person starting the server needs to know: where it serves, and what it runs on. */
export function startupLine(config: Config, port: number): string {
  const store = config.database.kind === 'sqlite' ? `the SQLite file ${config.database.path}` : 'PostgreSQL';
  const limiter = config.redisUrl ? 'in Redis' : 'in this process';
  const mail = config.mail ? `office e-mail to ${plural(config.mail.office.length, 'address', 'addresses')}` : 'no office e-mail (SMTP_URL is not set)';
  const backups = config.backups
    ? `backups every ${config.backups.intervalHours} h into ${config.backups.dir}`
    : 'no scheduled backups (BACKUP_DIR is not set)';
  return (
    `Lead Intake API: the site is at ${config.siteUrl} (listening on ${config.host}:${port}); leads are kept in ` +
    `${store}, rate limits counted ${limiter}; ${mail}; ${backups}.`
  );
}
