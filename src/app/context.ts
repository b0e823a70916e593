/** The services every door and job receives (`services.ts` makes them once), and the facts of one request. */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { LeadIntake } from '../leads/store.ts';
import type { RateLimiter } from '../limiter/rate-limiter.ts';
import type { Offer } from '../facts.ts';

/** Created once per process by `src/app/services.ts` and handed to endpoints as `locals.services`. */
export interface AppServices {
  config: Config;
  /** The store in its one role here: taking in leads (and saying whether it can). */
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
