/**
 * What the composition (`src/app/compose.ts`) hands out, by who receives it: every on-demand route's
 * public services (`locals.services`), the office's powers (handed to an office page by its guard
 * alone, once the session is checked), the server's jobs' roles; and the facts of one request.
 * The store itself is handed to nobody: each receives objects of its role's methods alone (`role`).
 */
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import type { LeadIntake, LeadRecords, LeadStore, Outbox, ServiceKeys } from '../leads/store.ts';
import type { RateLimiter } from '../limiter/rate-limiter.ts';
import type { Offer } from '../service-facts.ts';
import type { CallBackPromise } from '../leads/next-step.ts';
import type { ServiceArea } from '../leads/service-area.ts';
import type { AuditTrail, OfficeAccounts, OfficeInbox, OfficeOverview, OfficeSessions, OfficeStore, SpamFolder } from '../office/store.ts';
import type { SignInDeps } from '../office/session.ts';
import type { OfficeAttempts } from '../office/attempts.ts';

/** What every on-demand route receives (`locals.services`): taking in leads, and nothing of the office's. */
export interface PublicServices {
  config: Config;
  logger: Logger;
  /** The store in its one role here: taking in leads (and saying whether it can). */
  intake: LeadIntake;
  /** The lead submissions' budget, spent by the front door (`src/http/front-door.ts`). */
  limiter: RateLimiter;
  /** The key that signs the web forms' tokens, held in the store (the same for every instance). */
  formTokenKey: Buffer;
  /** What the forms offer (services, contact topics, the consent wording), published to agents. */
  offer: Offer;
  /** What the business promises about answering a request (`whatHappensNext`). */
  promise: CallBackPromise;
  /** The ZIP codes the company serves (`inServiceArea` in a receipt). */
  serviceArea: ServiceArea;
  /** Where the web forms keep what their spam traps catch: aside from the leads, for the office. */
  spamFolder: Pick<SpamFolder, 'keepSpam'>;
}

/** The office's powers: its roles of the store, and its limits. Only the office guard hands them out. */
export interface OfficePowers {
  /** The accounts' password hashes (the sign-in), and the list of them (whom a lead is given to, by opaque id). */
  accounts: Pick<OfficeAccounts, 'passwordHash' | 'listUsers'>;
  sessions: OfficeSessions;
  inbox: OfficeInbox;
  /** The inbox at a glance: counts and leads per week. */
  overview: OfficeOverview;
  spam: SpamFolder;
  audit: AuditTrail;
  /** A call, text or e-mail that reached nobody, recorded with its lead. */
  attempts: OfficeAttempts;
  /** The export, and deletion on request. */
  records: Pick<LeadRecords, 'exportLeads' | 'countPerson' | 'deletePerson'>;
  /** Whether the office's e-mail is being delivered. */
  outbox: Pick<Outbox, 'outboxStatus' | 'waitingNotifications'>;
  signInLimits: SignInDeps['limits'];
  /** Each session's changes (search, status, release, deletion): `OFFICE_ACTIONS_PER_MINUTE`. */
  actionLimit: RateLimiter;
}

/** The store's roles for the server's background work. */
export interface JobRoles {
  /** The retention job's: one purge step. */
  purge: Pick<LeadRecords, 'purgeStep'>;
  /** The office's e-mail job's. */
  outbox: Outbox;
}

/** Facts about one request that the transport knows: given by our server, or made by the middleware. */
export interface RequestInfo {
  /** UUID sent as `X-Request-Id`, used in the problem's `instance` and in the log line. */
  id: string;
  /** The client's address (see `client-address.ts`). */
  clientAddress: string;
  /** The Host the client sent (our server pins the request's own Host to `SITE_URL`'s). */
  host: string | undefined;
  /**
   * Resolves once the connection has room for more of the answer (or is closed): our server's, so
   * that a streamed body is read no faster than the client takes it. Absent elsewhere.
   */
  drained?: () => Promise<void>;
  /** What the request's one log line adds (our server's; absent elsewhere): the origin a refused form came from. */
  logNotes?: { refusedOrigin?: string };
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
  overview: OfficeOverview;
  spam: SpamFolder;
  audit: AuditTrail;
  attempts: OfficeAttempts;
} {
  return {
    accounts: role<OfficeAccounts>(store, { saveUser: true, removeUser: true, listUsers: true, passwordHash: true }),
    sessions: role<OfficeSessions>(store, {
      startSession: true,
      touchSession: true,
      endSession: true,
      rememberSearch: true,
      recallSearch: true,
      holdChange: true,
      takeHeldChange: true,
    }),
    inbox: role<OfficeInbox>(store, {
      inbox: true,
      setStatus: true,
      addNote: true,
      workLead: true,
      openedLead: true,
      samePerson: true,
      personLeads: true,
      personSpam: true,
      exportInbox: true,
    }),
    overview: role<OfficeOverview>(store, {
      inboxCount: true,
      statusCounts: true,
      waitingCounts: true,
      leadsPerWeek: true,
      promiseCounts: true,
      spamWaiting: true,
      teamLoad: true,
    }),
    spam: role<SpamFolder>(store, { keepSpam: true, listSpam: true, findSpam: true, releaseSpam: true, markNotACustomer: true }),
    audit: role<AuditTrail>(store, { record: true, recent: true }),
    attempts: role<OfficeAttempts>(store, { recordAttempt: true }),
  };
}

/** The office's powers on `store`, each role its own methods alone, with the office's limits. */
export function officePowers(store: LeadStore & OfficeStore, limits: Pick<OfficePowers, 'signInLimits' | 'actionLimit'>): OfficePowers {
  const office = officeRoles(store);
  return Object.freeze({
    accounts: role<OfficePowers['accounts']>(store, { passwordHash: true, listUsers: true }),
    sessions: office.sessions,
    inbox: office.inbox,
    overview: office.overview,
    spam: office.spam,
    audit: office.audit,
    attempts: office.attempts,
    records: role<OfficePowers['records']>(store, { exportLeads: true, countPerson: true, deletePerson: true }),
    outbox: role<OfficePowers['outbox']>(store, { outboxStatus: true, waitingNotifications: true }),
    signInLimits: limits.signInLimits,
    actionLimit: limits.actionLimit,
  });
}

/** The web forms' spam folder: where their traps keep what they catch, and nothing else of the office's. */
export const spamFolder = (store: SpamFolder): PublicServices['spamFolder'] => role<PublicServices['spamFolder']>(store, { keepSpam: true });

/** The store's four roles (`src/leads/store.ts`), each an object of its own methods alone. */
export function storeRoles(store: LeadStore): { intake: LeadIntake; records: LeadRecords; outbox: Outbox; keys: ServiceKeys } {
  return {
    intake: role<LeadIntake>(store, { submit: true, ping: true }),
    records: role<LeadRecords>(store, { exportLeads: true, countPerson: true, deletePerson: true, deletionRecords: true, purgeStep: true, keepAnswerBy: true }),
    outbox: role<Outbox>(store, {
      claimNotifications: true,
      notificationSent: true,
      notificationFailed: true,
      outboxStatus: true,
      waitingNotifications: true,
    }),
    keys: role<ServiceKeys>(store, { secret: true, announcedAt: true, recordAnnouncement: true }),
  };
}

/** What the office's commands work with: the roles they use, as the composition hands them out (never the whole store). */
export interface CommandRoles {
  records: LeadRecords;
  outbox: Outbox;
  accounts: OfficeAccounts;
  inbox: Pick<OfficeInbox, 'personLeads' | 'personSpam' | 'exportInbox'>;
  audit: AuditTrail;
}

/** The office's commands' roles on `store`. */
export function commandRoles(store: LeadStore & OfficeStore): CommandRoles {
  const lead = storeRoles(store);
  const office = officeRoles(store);
  return Object.freeze({ records: lead.records, outbox: lead.outbox, accounts: office.accounts, inbox: office.inbox, audit: office.audit });
}
