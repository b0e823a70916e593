/**
 * The services every door and job receives (`services.ts` makes them once), the store's roles as
 * they are handed out, and the facts of one request.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { LeadIntake, LeadRecords, LeadStore, Outbox, ServiceKeys } from '../leads/store.ts';
import type { RateLimiter } from '../limiter/rate-limiter.ts';
import type { Offer } from '../facts.ts';
import type { AuditTrail, OfficeAccounts, OfficeInbox, OfficeSessions, OfficeStore, SpamFolder } from '../office/store.ts';

/** What the office's page works with: its own roles of the store, and the sign-in throttles. */
export interface OfficeServices {
  accounts: Pick<OfficeAccounts, 'passwordHash'>;
  sessions: OfficeSessions;
  inbox: OfficeInbox;
  spam: SpamFolder;
  audit: AuditTrail;
  /** The export, and deletion on request. */
  records: Pick<LeadRecords, 'exportLeads' | 'countPerson' | 'deletePerson'>;
  /** Whether the office's e-mail is being delivered. */
  outbox: Pick<Outbox, 'outboxStatus' | 'waitingNotifications'>;
  signInLimits: { account: RateLimiter; client: RateLimiter };
}

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
  /** Where the web forms keep what their spam traps catch: aside from the leads, for the office to look at. */
  spamFolder: Pick<SpamFolder, 'keepSpam'>;
  /** The office's page's, which only the routes under `/office` use (behind `http/office-guard.ts`). */
  office: OfficeServices;
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

/** The office's roles of the store (`src/office/store.ts`), each an object of its own methods alone. */
export function officeRoles(store: OfficeStore): {
  accounts: OfficeAccounts;
  sessions: OfficeSessions;
  inbox: OfficeInbox;
  spam: SpamFolder;
  audit: AuditTrail;
} {
  return {
    accounts: role<OfficeAccounts>(store, { saveUser: true, removeUser: true, listUsers: true, passwordHash: true }),
    sessions: role<OfficeSessions>(store, { startSession: true, touchSession: true, endSession: true }),
    inbox: role<OfficeInbox>(store, { inbox: true, setStatus: true, personLeads: true }),
    spam: role<SpamFolder>(store, { keepSpam: true, listSpam: true, findSpam: true, dropSpam: true }),
    audit: role<AuditTrail>(store, { record: true, recent: true }),
  };
}

/** What the office's page receives of the store (each role its own methods alone), with the sign-in throttles. */
export function officeServices(store: LeadStore & OfficeStore, signInLimits: OfficeServices['signInLimits']): OfficeServices {
  const office = officeRoles(store);
  return Object.freeze({
    accounts: role<OfficeServices['accounts']>(store, { passwordHash: true }),
    sessions: office.sessions,
    inbox: office.inbox,
    spam: office.spam,
    audit: office.audit,
    records: role<OfficeServices['records']>(store, { exportLeads: true, countPerson: true, deletePerson: true }),
    outbox: role<OfficeServices['outbox']>(store, { outboxStatus: true, waitingNotifications: true }),
    signInLimits,
  });
}

/** The web forms' spam folder: where their traps keep what they catch, and nothing else of the office's. */
export const spamFolder = (store: SpamFolder): AppServices['spamFolder'] => role<AppServices['spamFolder']>(store, { keepSpam: true });

/** The store's four roles (`src/leads/store.ts`), each an object of its own methods alone. */
export function storeRoles(store: LeadStore): { intake: LeadIntake; records: LeadRecords; outbox: Outbox; keys: ServiceKeys } {
  return {
    intake: role<LeadIntake>(store, { submit: true, ping: true }),
    records: role<LeadRecords>(store, { exportLeads: true, countPerson: true, deletePerson: true, deletionRecords: true, purgeStep: true }),
    outbox: role<Outbox>(store, { claimNotifications: true, notificationSent: true, notificationFailed: true, outboxStatus: true, waitingNotifications: true }),
    keys: role<ServiceKeys>(store, { secret: true, announcedAt: true, recordAnnouncement: true }),
  };
}
