/** Builds RFC 9457 problem documents and responses from the registry. */
import type { FieldError } from '../leads/validate.ts';
import { PROBLEMS, problemTypeUri, type ProblemCode } from './registry.ts';

/** An RFC 9457 problem document with this API's extension members. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: ProblemCode;
  resolution: string;
  /** Backward-compatible copy of `detail` for the company's existing forms. */
  error: string;
  errors?: FieldError[];
  /** On a 422 with more field problems than `errors` lists (`MAX_LISTED_ERRORS`): how many it left out. */
  errorsOmitted?: number;
  /** On a 409: the lead that was accepted first, by its id and its short reference, and what happens next with it. */
  leadId?: string;
  reference?: string;
  whatHappensNext?: string;
}

/**
 * The most field problems a 422 lists: a small body can hold thousands of members the form does not
 * have, and the answer stays small; `errorsOmitted` says how many more there were.
 */
export const MAX_LISTED_ERRORS = 50;

/**
 * Where a 422's detail says its `count` field problems are: each in `errors` (`also`: beside the one the detail names), or
 * the first `MAX_LISTED_ERRORS` there and the rest counted.
 */
export function whereListed(count: number, also = false): string {
  if (count <= MAX_LISTED_ERRORS) return also ? 'also listed in errors' : 'each is listed in errors';
  return `${also ? 'also found: ' : ''}errors lists the first ${MAX_LISTED_ERRORS}, and errorsOmitted counts the other ${count - MAX_LISTED_ERRORS}`;
}

/** The members a problem of this service may carry beyond RFC 9457's and the contract's own. */
type Extra = Pick<ProblemDocument, 'errors' | 'leadId' | 'reference' | 'whatHappensNext'>;

/** A known failure, thrown or returned by a handler and turned into a problem response. */
export class Problem extends Error {
  readonly code: ProblemCode;
  readonly detail: string;
  readonly extra: Extra;
  readonly headers: Record<string, string>;
  constructor(code: ProblemCode, detail?: string, extra: Extra = {}, headers: Record<string, string> = {}) {
    // A problem is an answer, not a fault: no stack trace is captured (the largest cost of a 429).
    // Nothing between the two assignments can throw, so the limit is always restored.
    const message = detail ?? PROBLEMS[code].title;
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.code = code;
    this.detail = detail ?? PROBLEMS[code].description;
    this.extra = extra;
    this.headers = headers;
  }
}

/** The problem document of one occurrence. */
export function problemDocument(problem: Problem, ctx: { siteUrl: string; requestId: string }): ProblemDocument {
  const type = PROBLEMS[problem.code];
  return {
    type: problemTypeUri(ctx.siteUrl, problem.code),
    title: type.title,
    status: type.status,
    detail: problem.detail,
    instance: `urn:uuid:${ctx.requestId}`,
    code: problem.code,
    resolution: type.resolution,
    error: problem.detail,
    ...problem.extra,
    ...(problem.extra.errors &&
      problem.extra.errors.length > MAX_LISTED_ERRORS && {
        errors: problem.extra.errors.slice(0, MAX_LISTED_ERRORS),
        errorsOmitted: problem.extra.errors.length - MAX_LISTED_ERRORS,
      }),
  };
}

/** The `application/problem+json` response of one occurrence; never cached. */
export function problemResponse(problem: Problem, ctx: { siteUrl: string; requestId: string }, headers: HeadersInit = {}): Response {
  const doc = problemDocument(problem, ctx);
  const h = new Headers(headers);
  for (const [k, v] of Object.entries(problem.headers)) h.set(k, v);
  h.set('Content-Type', 'application/problem+json');
  h.set('Cache-Control', 'no-store');
  return new Response(JSON.stringify(doc), { status: doc.status, headers: h });
}
