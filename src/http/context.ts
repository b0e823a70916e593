/** What an on-demand route receives as `locals`: the public services, this request's facts, and what the front door decided. */
import type { OfficePowers, PublicServices, RequestInfo } from '../roles/index.ts';
import type { RateLimitState } from '../limiter/rate-limiter.ts';
import type { SignInDeps } from '../office/session.ts';
import type { OfficeRole } from '../office/store.ts';

export type { PublicServices, RequestInfo } from '../roles/index.ts';

/** An office page's own, handed to it by the office guard once the session is checked. */
export interface SignedInOffice {
  user: string;
  /** What the account may do: the guard has already refused an owner's page to staff. */
  role: OfficeRole;
  /** The session's token (its cookie). */
  token: string;
  powers: OfficePowers;
}

/** The `locals` of an on-demand request. */
export interface ApiContext {
  services: PublicServices;
  request: RequestInfo;
  /** A submission's spent budget (a lead POST, a web form), counted once by the front door. */
  budget?: RateLimitState;
  /** Under `/office`, once the session is checked: the signed-in account and the office's powers. */
  office?: SignedInOffice;
  /** On the office's sign-in page alone: what signing in needs. */
  signingIn?: SignInDeps;
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
