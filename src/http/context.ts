/** What every API handler is given besides the request: the process's services and this request's facts. */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { RateLimiter } from '../limiter/rate-limiter.ts';
import type { LeadStore } from '../store/lead-store.ts';

/** Created once at start-up by the server and handed to Astro as `locals.services`. */
export interface AppServices {
  config: Config;
  store: LeadStore;
  limiter: RateLimiter;
  logger: Logger;
  /** `Deprecation`, `Link` and, when configured, `Sunset` of the `/api/leads` alias. */
  aliasHeaders: Readonly<Record<string, string>>;
}

/** Facts about one request that only the server knows. */
export interface RequestInfo {
  /** UUID sent as `X-Request-Id`, used in the problem's `instance` and in the log line. */
  id: string;
  /** The client's address (see `client-address.ts`). */
  clientAddress: string;
}

/** The `locals` of an API request. */
export interface ApiContext {
  services: AppServices;
  request: RequestInfo;
}
