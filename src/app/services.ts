/**
 * The composition root: the process's configuration, logger, lead store and rate limiter, created
 * once per process on first use, inside Astro's bundle. The middleware hands them to every
 * on-demand route as `locals.services`, under `astro dev`, under our server and under any other
 * adapter alike; our server asks for them at start-up so that a bad configuration stops the start.
 * The store itself is handed to nobody: each consumer gets an object of its role's methods alone
 * (`role` in `context.ts`), the routes the intake, the server's jobs theirs (`jobRoles`).
 */
import { ConfigError, getConfig } from '../config.ts';
import type { LeadRecords, LeadStore, Outbox } from '../leads/store.ts';
import { officeServices, role, spamFolder, storeRoles, type AppServices } from './context.ts';
import { aliasHeaders, checkSunsetNotice } from '../http/deprecation.ts';
import { createLimiter } from '../limiter/index.ts';
import { createLogger } from './logger.ts';
import { createLeadStore } from '../store/index.ts';
import { SIGN_IN_LIMITS } from '../office/session.ts';
import { nobodysHash } from '../office/passwords.ts';
import { publishedOffer } from '../web-forms/words.ts';

/** The services, and how to close what they hold open. */
export interface Services extends AppServices {
  /** Which store keeps the leads, for the server's start-up line. */
  storeKind: LeadStore['kind'];
  /** Closes the store and the limiter; later calls return the same promise. */
  close(): Promise<void>;
}

/** The store's roles for the server's background work, each an object of its methods alone. */
export interface JobRoles {
  /** The retention job's: one purge step. */
  purge: Pick<LeadRecords, 'purgeStep'>;
  /** The office's e-mail job's. */
  outbox: Outbox;
}

/** A reason not to start that the operator can act on, worded for them. */
export class StartupError extends Error {
  override name = 'StartupError';
}

let opening: Promise<{ services: Services; jobs: JobRoles }> | undefined;

function opened(): Promise<{ services: Services; jobs: JobRoles }> {
  opening ??= open().catch((err: unknown) => {
    opening = undefined;
    throw err;
  });
  return opening;
}

/** The process's services, opened on the first call. A failed opening is retried by the next call. */
export async function services(): Promise<Services> {
  return (await opened()).services;
}

/** The roles of the server's background work, on the services' one store (opened if need be). Not for routes. */
export async function jobRoles(): Promise<JobRoles> {
  return (await opened()).jobs;
}

async function open(): Promise<{ services: Services; jobs: JobRoles }> {
  const config = getConfig();
  const logger = createLogger(config.logLevel);
  const store = await createLeadStore(config).catch((err: unknown) => {
    if (err instanceof ConfigError) throw err;
    throw new StartupError(`Cannot open the lead store named by DATABASE_URL: ${(err as Error).message}`, { cause: err });
  });
  const roles = storeRoles(store);
  const sunset = await checkSunsetNotice(config, roles.keys, new Date()).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  if (sunset) {
    await store.close();
    throw new StartupError(sunset);
  }
  const formTokenKey = await roles.keys.secret('web-form-token').catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  const offer = await publishedOffer();
  const limits = createLimiter(config);
  // Made now, so that the first sign-in with an unknown e-mail takes no longer than any other.
  await nobodysHash();
  const signIns = {
    account: createLimiter(config, { ...SIGN_IN_LIMITS.account, name: 'sign-in:account' }),
    client: createLimiter(config, { ...SIGN_IN_LIMITS.client, name: 'sign-in:client' }),
  };
  let closing: Promise<void> | undefined;
  const services: Services = Object.freeze({
    config,
    logger,
    intake: roles.intake,
    limiter: limits.limiter,
    aliasHeaders: aliasHeaders(config),
    formTokenKey,
    offer,
    spamFolder: spamFolder(store),
    office: officeServices(store, { account: signIns.account.limiter, client: signIns.client.limiter }),
    storeKind: store.kind,
    close: () => (closing ??= Promise.all([store.close(), limits.close(), signIns.account.close(), signIns.client.close()]).then(() => undefined)),
  });
  const jobs: JobRoles = Object.freeze({ purge: role<JobRoles['purge']>(store, { purgeStep: true }), outbox: roles.outbox });
  return { services, jobs };
}
