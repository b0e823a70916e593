/** What the API handlers need: the process's services, this request's facts, and the route they serve. */
import type { AppServices, RequestInfo } from '../app/context.ts';
import type { RateLimitState } from '../limiter/rate-limiter.ts';

export type { AppServices, RequestInfo } from '../app/context.ts';

/** The `locals` of an API request. */
export interface ApiContext {
  services: AppServices;
  request: RequestInfo;
  /** A web-form submission's spent budget, counted once by the middleware's guard. */
  formBudget?: RateLimitState;
  /** Under `/office`, the signed-in account and its session's token (`office-guard.ts`). */
  office?: { user: string; token: string };
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
