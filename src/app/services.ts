/**
 * The process's composition: its configuration (from the environment), logger, lead store,
 * limiters and the forms' offer (from the content), composed once on first use by `composeServices`,
 * inside Astro's bundle. The middleware hands the public services to every on-demand route, under
 * `astro dev`, under our server and under any other adapter alike; our server asks for them at
 * start-up, so that a bad configuration stops the start.
 */
import { ConfigError, getConfig } from '../config/config.ts';
import { createLimiter } from '../limiter/index.ts';
import { RATE_LIMIT } from '../service-facts.ts';
import { nobodysHash } from '../office/passwords.ts';
import { publishedOffer } from '../site/form-words.ts';
import { company } from '../site/company.ts';
import { answerBy } from '../leads/next-step.ts';
import { createLeadStore } from '../store/index.ts';
import { composeServices, StartupError, type Composition } from './compose.ts';
import { createLogger, logFormat } from './logger.ts';
import { officeLimiters } from './office-limits.ts';

export { StartupError, type Composition } from './compose.ts';

let opening: Promise<Composition> | undefined;

/** The process's composition, made on the first call. A failed one is tried again by the next call. */
export function composition(): Promise<Composition> {
  opening ??= open().catch((err: unknown) => {
    opening = undefined;
    throw err;
  });
  return opening;
}

async function open(): Promise<Composition> {
  const config = getConfig();
  const logger = createLogger(config.logLevel, undefined, logFormat(config.logFormat));
  const [offer, { promise, serviceArea }] = await Promise.all([publishedOffer(), company()]);
  const store = await createLeadStore(config, logger).catch((err: unknown) => {
    if (err instanceof ConfigError) throw err;
    throw new StartupError(`Cannot open the lead store named by DATABASE_URL: ${(err as Error).message}`, { cause: err });
  });
  // Made now, so that the first sign-in with an unknown e-mail takes no longer than any other.
  await nobodysHash();
  // Leads stored before their answer-by instant was kept get it once, from the promise as it is today.
  const kept = await store.keepAnswerBy((receivedAt) => answerBy(receivedAt, promise));
  if (kept > 0) logger.info({ leads: kept }, 'answer-by instants worked out for leads stored before they were kept');
  return composeServices({
    config,
    logger,
    store,
    offer,
    promise,
    serviceArea,
    limiters: { submissions: createLimiter(config, { ...RATE_LIMIT, name: 'leads' }), office: officeLimiters(config) },
  });
}
