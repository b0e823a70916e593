/**
 * The registry of problem types. Codes are permanent: a code, once published, keeps its meaning.
 * This one table feeds the API's problem responses, the examples in `spec/openapi.yaml` (checked by
 * a test) and the `/developers/errors` page, so the three cannot drift apart.
 */
import { API_PATHS, MAX_BODY_TEXT, RATE_LIMIT, REPLAY_WINDOW_TEXT } from '../service-facts.ts';
import { retrySentence } from '../service-rules.ts';

/** One kind of problem: what the API answers, and what a caller should do about it. */
export interface ProblemType {
  /** HTTP status sent with this problem. */
  readonly status: number;
  /** Short summary, the same for every occurrence. */
  readonly title: string;
  /** What happened and why, for the errors page. */
  readonly description: string;
  /** One sentence telling the caller what to do next. */
  readonly resolution: string;
}

export const PROBLEMS = {
  rate_limited: {
    status: 429,
    title: 'Too many submissions',
    description:
      `This client sent more than ${RATE_LIMIT.points} lead submissions within ${RATE_LIMIT.windowSeconds} seconds. ` +
      `Every POST to ${API_PATHS.leads} or ${API_PATHS.deprecatedLeads} counts, accepted or not.`,
    resolution: retrySentence('afterRetryAfter'),
  },
  authorization_not_accepted: {
    status: 400,
    title: 'Credentials are not accepted',
    description:
      'The request carried an Authorization header. The API is anonymous: it accepts no bearer token, API key or password, and callers must not send one.',
    resolution: 'Remove the Authorization header and send the request again.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    description: 'Lead submissions must be JSON documents sent with Content-Type: application/json.',
    resolution: 'Send the body as JSON with the header Content-Type: application/json.',
  },
  payload_too_large: {
    status: 413,
    title: 'Request body too large',
    description: `The request body is larger than ${MAX_BODY_TEXT} bytes, the limit for a lead submission.`,
    resolution: `Shorten the free-text fields so that the whole JSON body is at most ${MAX_BODY_TEXT} bytes.`,
  },
  malformed_json: {
    status: 400,
    title: 'Malformed JSON',
    description: 'The request body is not a valid JSON document in UTF-8.',
    resolution: 'Send a single JSON object encoded in UTF-8, checked with a JSON serializer.',
  },
  consent_required: {
    status: 422,
    title: 'Communications consent required',
    description:
      'A quote request needs communicationsConsent set to the JSON value true: the customer must have explicitly ' +
      'asked to be contacted. A contact message may leave it out, but if it carries it, it must be true too. The ' +
      'errors array also lists every other field problem.',
    resolution:
      'Ask the customer whether the company may contact them about this request, and only if they agree send the lead ' +
      'again, corrected, with communicationsConsent: true and a new Idempotency-Key.',
  },
  validation_failed: {
    status: 422,
    title: 'Invalid lead fields',
    description:
      'One or more fields are missing, of the wrong type, badly formatted, too long or not part of the form. The ' +
      'errors array lists every problem with a JSON Pointer into the request body, and its detail says what the field ' +
      'expects (the first 50, when there are more: errorsOmitted then says how many it left out; a list longer than its ' +
      'field takes is one problem at the list). Nothing was stored.',
    resolution:
      'Remove each member the errors array marks unknown_field, correct every other field it lists as its detail ' +
      'says, and send the corrected lead with a new Idempotency-Key.',
  },
  invalid_idempotency_key: {
    status: 400,
    title: 'Invalid Idempotency-Key header',
    description: 'The Idempotency-Key header must be a structured-field string ("…") or a token of 1 to 255 visible ASCII characters.',
    resolution: 'Send a new random UUID as the Idempotency-Key header, quoted as a Structured Field string.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key reused with a different body',
    description: `The Idempotency-Key of this request was already used within the last ${REPLAY_WINDOW_TEXT} for a request with a different body.`,
    resolution: 'Use a new Idempotency-Key for a new submission, or resend the original body unchanged to get the original response.',
  },
  duplicate_submission: {
    status: 409,
    title: 'Duplicate submission',
    description:
      `The same lead (same form, same contact details and content) was already accepted in the last ` +
      `${REPLAY_WINDOW_TEXT}. leadId and reference name the lead that was accepted.`,
    resolution: 'Do nothing more: the earlier submission was received and the company will contact the customer.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    description: 'No API resource exists at this path. The API has no other paths than those in its OpenAPI description.',
    resolution: 'Use only the paths listed in /openapi.json.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    description: 'This API path exists but does not support the request method. The Allow header lists the methods it does support.',
    resolution: 'Use one of the methods listed in the Allow header.',
  },
  bad_request: {
    status: 400,
    title: 'Bad request',
    description:
      "The request could not be understood as HTTP: its request line, a header, its path's percent-encoding or its " +
      "body's framing (Content-Length, Transfer-Encoding, chunk sizes) is invalid, or the body was not received " +
      'completely. The detail names the fault. Nothing was stored.',
    resolution: 'Send a well-formed HTTP/1.1 request, as an HTTP client library does.',
  },
  request_timeout: {
    status: 408,
    title: 'Request body too slow',
    description:
      'The request body stopped arriving before it was complete, or the whole request took longer than the server ' +
      'waits. Nothing was stored; the connection is closed.',
    resolution: 'Send the whole request again, on a new connection, without pausing in the middle of the body.',
  },
  request_header_fields_too_large: {
    status: 431,
    title: 'Request headers too large',
    description: 'The request line and headers together are larger than the server accepts. Nothing was stored; the connection is closed.',
    resolution: 'Send the request again without the unneeded headers, such as large cookies.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    description: 'An unexpected failure happened on the server. Nothing was stored.',
    resolution: retrySentence('afterInternalError'),
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    description:
      'The lead store cannot be reached, is out of space, or lost its connection while it was storing the lead. The ' +
      'detail says whether the lead may have been stored; otherwise nothing was stored.',
    resolution: `${retrySentence('afterRetryAfter').slice(0, -1)}: a lead that was stored is then answered as it was, never stored twice.`,
  },
} as const satisfies Record<string, ProblemType>;

/** A permanent machine-readable problem code. */
export type ProblemCode = keyof typeof PROBLEMS;

/** Every problem code, in the registry's order. */
export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[];

/** The documented URI of a problem type: `{base}/developers/errors#<code>`. */
export function problemTypeUri(siteUrl: string, code: ProblemCode): string {
  return `${siteUrl}/developers/errors#${code}`;
}
