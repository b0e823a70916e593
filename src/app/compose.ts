/**
 * The one composition: the services of the server, of `astro dev` and of the tests, made by one
 * pure function from parts its caller made (configuration, logger, an open store, the limiters,
 * what the forms offer). Nothing here reads the environment, the content or a module-level
 * singleton; the process's own parts are made in `services.ts`, a test's in its support.
 */
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import type { LeadStore } from '../leads/store.ts';
import type { LimiterHandle } from '../limiter/index.ts';
import type { OfficeStore } from '../office/store.ts';
import type { Offer } from '../service-facts.ts';
import type { CallBackPromise } from '../leads/next-step.ts';
import { officePowers, role, spamFolder, storeRoles, type JobRoles, type OfficePowers, type PublicServices } from '../roles/index.ts';
import type { ServiceArea } from '../leads/service-area.ts';
import type { OfficeLimiters } from './office-limits.ts';
import { checkSunsetNotice } from './sunset-notice.ts';

/** What the composition is made of: each part made, and opened, by the caller. */
export interface CompositionParts {
  config: Config;
  logger: Logger;
  store: LeadStore & OfficeStore;
  offer: Offer;
  promise: CallBackPromise;
  serviceArea: ServiceArea;
  limiters: { submissions: LimiterHandle; office: OfficeLimiters };
  /** The moment the start-up rules are checked against (the sunset's notice). */
  now?: Date;
}

/** Everything the composition hands out, by who receives it, and how to close what it holds open. */
export interface Composition {
  /** Every on-demand route's (`locals.services`). */
  services: PublicServices;
  /** The office's, handed to an office page by the office guard alone. */
  office: OfficePowers;
  /** The server's background jobs'. */
  jobs: JobRoles;
  /** Which store keeps the leads, for the server's start-up line. */
  storeKind: LeadStore['kind'];
  /** Closes the store and the limiters; later calls return the same promise. */
  close(): Promise<void>;
}

/** A reason not to start that the operator can act on, worded for them. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** Composes the services from `parts`; refuses (closing what it was given) when a start-up rule is broken. */
export async function composeServices(parts: CompositionParts): Promise<Composition> {
  const { config, logger, store, offer, promise, serviceArea, limiters } = parts;
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= Promise.all([store.close(), limiters.submissions.close(), limiters.office.close()]).then(() => undefined));
  const roles = storeRoles(store);
  try {
    const sunset = await checkSunsetNotice(config, roles.keys, parts.now ?? new Date());
    if (sunset) throw new StartupError(sunset);
    const formTokenKey = await roles.keys.secret('web-form-token');
    // The office's figures are kept per local day by its clock and services: a change of either counts them afresh.
    const recounted = await store.keepOfficeClock({ promise, services: offer.services });
    if (recounted > 0) logger.info({ leads: recounted }, "the office's figures worked out again for its time zone and services");
    const services: PublicServices = Object.freeze({
      config,
      logger,
      intake: roles.intake,
      limiter: limiters.submissions.limiter,
      formTokenKey,
      offer,
      promise,
      serviceArea,
      spamFolder: spamFolder(store),
    });
    return Object.freeze({
      services,
      office: officePowers(store, limiters.office),
      jobs: Object.freeze({ purge: role<JobRoles['purge']>(store, { purgeStep: true }), outbox: roles.outbox }),
      storeKind: store.kind,
      close,
    });
  } catch (err) {
    await close();
    throw err;
  }
}
