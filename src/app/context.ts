/**
 * The services every door and job receives (`services.ts` makes them once), the store's roles as
 * they are handed out, and the facts of one request.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { LeadIntake, LeadRecords, LeadStore, Outbox, ServiceKeys } from '../leads/store.ts';
import type { RateLimiter } from '../limiter/rate-limiter.ts';
import type { Offer } from '../facts.ts';

/** Created once per process by `src/app/services.ts` and handed to endpoints as `locals.services`. */
export interface AppServices {
  config: Config;
  /** The store in its one role here: taking in leads (and saying whether it can); nothing else of it. */
  intake: LeadIntake;
  limiter: RateLimiter;
  logger: Logger;
  /** `Deprecation`, `Link` and, when configured, `Sunset` of the `/api/leads` alias. */
  aliasHeaders: Readonly<Record<string, string>>;
  /** The key that signs the web forms' tokens, held in the store (the same for every instance). */
  formTokenKey: Buffer;
  /** What the forms offer (services, contact topics, the consent wording), published to agents. */
  offer: Offer;
}

/** Facts about one request that the transport knows: given by our server, or made by the middleware. */
export interface RequestInfo {
  /** UUID sent as `X-Request-Id`, used in the problem's `instance` and in the log line. */
  id: string;
  /** The client's address (see `client-address.ts`). */
  clientAddress: string;
  /** The Host the client sent (our server pins the request's own Host to `SITE_URL`'s). */
  host: string | undefined;
}

/** Every method of the role `R`, each named: a list that leaves one out does not compile. */
export type RoleMethods<R> = { readonly [K in keyof R]-?: true };

/**
 * An object holding `methods` of `store` and nothing else, each bound to the store: who receives
 * it cannot reach the store's other roles, whatever the types say (the routes' intake has no
 * `deletePerson`, the mail job's outbox no `submit`).
 */
export function role<R extends object>(store: R, methods: RoleMethods<R>): R {
  const picked: Record<string, unknown> = {};
  for (const name of Object.keys(methods)) {
    const method: unknown = (store as Record<string, unknown>)[name];
    if (typeof method !== 'function') throw new TypeError(`the store has no method ${name}`);
    picked[name] = (method as (...args: unknown[]) => unknown).bind(store);
  }
  return Object.freeze(picked) as R;
}

/** The store's four roles (`src/leads/store.ts`), each an object of its own methods alone. */
export function storeRoles(store: LeadStore): { intake: LeadIntake; records: LeadRecords; outbox: Outbox; keys: ServiceKeys } {
  return {
    intake: role<LeadIntake>(store, { submit: true, ping: true }),
    records: role<LeadRecords>(store, { exportLeads: true, countPerson: true, deletePerson: true, deletionRecords: true, purgeStep: true }),
    outbox: role<Outbox>(store, { claimNotifications: true, notificationSent: true, notificationFailed: true, outboxStatus: true, waitingNotifications: true }),
    keys: role<ServiceKeys>(store, { secret: true, announcedAt: true, recordAnnouncement: true }),
  };
}
