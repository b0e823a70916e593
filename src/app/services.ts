/**
 * The composition root: the process's configuration, logger, lead store and rate limiter, created
 * once per process on first use, inside Astro's bundle. The middleware hands them to every
 * on-demand route as `locals.services`, under `astro dev`, under our server and under any other
 * adapter alike; our server asks for them at start-up so that a bad configuration stops the start.
 */
import { ConfigError, getConfig } from '../config.ts';
import type { LeadStore } from '../leads/store.ts';
import type { AppServices } from './context.ts';
import { aliasHeaders, checkSunsetNotice } from '../http/deprecation.ts';
import { createLimiter } from '../limiter/index.ts';
import { createLogger } from './logger.ts';
import { createLeadStore } from '../store/index.ts';
import { publishedOffer } from '../web-forms/words.ts';

/** The services, and how to close what they hold open. */
export interface Services extends AppServices {
  /** The whole store, for the server's background work, which takes its roles from it. */
  store: LeadStore;
  /** Closes the store and the limiter; later calls return the same promise. */
  close(): Promise<void>;
}

/** A reason not to start that the operator can act on, worded for them. */
export class StartupError extends Error {
  override name = 'StartupError';
}

let opening: Promise<Services> | undefined;

/** The process's services, opened on the first call. A failed opening is retried by the next call. */
export function services(): Promise<Services> {
  opening ??= open().catch((err: unknown) => {
    opening = undefined;
    throw err;
  });
  return opening;
}

async function open(): Promise<Services> {
  const config = getConfig();
  const logger = createLogger(config.logLevel);
  const store = await createLeadStore(config).catch((err: unknown) => {
    if (err instanceof ConfigError) throw err;
    throw new StartupError(`Cannot open the lead store named by DATABASE_URL: ${(err as Error).message}`, { cause: err });
  });
  const sunset = await checkSunsetNotice(config, store, new Date()).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  if (sunset) {
    await store.close();
    throw new StartupError(sunset);
  }
  const formTokenKey = await store.secret('web-form-token').catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  const offer = await publishedOffer();
  const limits = createLimiter(config);
  let closing: Promise<void> | undefined;
  return Object.freeze({
    config,
    logger,
    store,
    intake: store,
    limiter: limits.limiter,
    aliasHeaders: aliasHeaders(config),
    formTokenKey,
    offer,
    close: () => (closing ??= Promise.all([store.close(), limits.close()]).then(() => undefined)),
  });
}
