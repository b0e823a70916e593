/** What the API handlers need: the process's services, this request's facts, and the route they serve. */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { LeadStore } from '../leads/store.ts';
import type { RateLimiter, RateLimitState } from '../limiter/rate-limiter.ts';
import type { Offer } from '../service-info.ts';

/** Created once per process by `src/services.ts` and handed to endpoints as `locals.services`. */
export interface AppServices {
  config: Config;
  store: LeadStore;
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

/** The `locals` of an API request. */
export interface ApiContext {
  services: AppServices;
  request: RequestInfo;
  /** A web-form submission's spent budget, counted once by the middleware's guard. */
  formBudget?: RateLimitState;
}

/**
 * One API path: the methods it serves (OPTIONS is answered for every path) and its handler. The
 * handler adds to `headers` what every answer of this request must carry, refusals included.
 */
export interface ApiRoute {
  readonly path: string;
  readonly methods: readonly string[];
  /** Every answer counts against, or reports, the client's lead rate limit. */
  readonly rateLimited: boolean;
  /** Deprecated alias: every answer carries the deprecation headers. */
  readonly deprecated: boolean;
  handle(request: Request, ctx: ApiContext, route: ApiRoute, headers: Headers): Promise<Response>;
}
