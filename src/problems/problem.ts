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
  /** On a 409: the lead that was accepted first, by its id and its short reference, and what happens next with it. */
  leadId?: string;
  reference?: string;
  whatHappensNext?: string;
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
