/**
 * `POST /api/v1/leads` and its deprecated alias `POST /api/leads`: one handler, the contract's
 * order of checks (first failure wins), rate-limit headers on every answer.
 */
import { takeLead, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../leads/intake.ts';
import { keptPromise, whatHappensNext } from '../leads/next-step.ts';
import type { RateLimitState } from '../limiter/rate-limiter.ts';
import { Problem, whereListed } from '../problems/problem.ts';
import { RATE_LIMIT, REPLAY_WINDOW_TEXT } from '../service-facts.ts';
import type { ApiContext, ApiRoute } from './context.ts';
import { jsonResponse, rateLimitHeaders, setAll } from './headers.ts';
import { parseIdempotencyKey } from './idempotency-key.ts';
import { discardBody, parseJson, readBodyText } from './read-body.ts';
import { plural } from '../lib/text.ts';

/** `application/json`; a `charset` parameter, if any, must be UTF-8 (other parameters are ignored). */
export function isJsonMediaType(contentType: string | null): boolean {
  if (!contentType) return false;
  const [type, ...params] = contentType.split(';');
  if (type?.trim().toLowerCase() !== 'application/json') return false;
  return params.every((p) => {
    const [name, value = ''] = p.split('=').map((s) => s.trim().toLowerCase());
    return name !== 'charset' || ['utf-8', 'utf8', '"utf-8"'].includes(value);
  });
}

/** Steps 1 to 3 of the contract's order: what refuses a submission before its body is read. */
function refuseUnread(request: Request, limit: RateLimitState): Problem | undefined {
  if (!limit.allowed) {
    return new Problem(
      'rate_limited',
      `This client sent more than ${limit.limit} submissions within ${RATE_LIMIT.windowSeconds} seconds; the limit ` +
        `resets in ${plural(limit.resetSeconds, 'second')}.`,
    );
  }
  if (request.headers.has('authorization')) {
    return new Problem('authorization_not_accepted', 'The request carried an Authorization header; this API is anonymous and accepts no credentials.');
  }
  if (!isJsonMediaType(request.headers.get('content-type'))) {
    return new Problem(
      'unsupported_media_type',
      request.headers.get('content-type')
        ? 'The request body was not sent as application/json (UTF-8).'
        : 'The request has no Content-Type header; application/json was expected.',
    );
  }
  return undefined;
}

/** Handles a POST to either lead path; `serveRoute` has added the alias headers and answers other methods. */
export async function handleLeadRequest(request: Request, ctx: ApiContext, route: ApiRoute, headers: Headers): Promise<Response> {
  const { services } = ctx;
  // Spent by the front door, for every submission, before anything else.
  const limit = ctx.budget;
  if (!limit) throw new Error('a lead submission reached its handler without its budget');
  setAll(headers, rateLimitHeaders(limit));
  const refusal = refuseUnread(request, limit);
  if (refusal) {
    await discardBody(request);
    throw refusal;
  }
  const body = parseJson(await readBodyText(request));
  const meta = {
    receivedVia: route.path,
    channel: 'api' as const,
    clientAddress: ctx.request.clientAddress,
    userAgent: request.headers.get('user-agent'),
    now: new Date(),
  };
  const outcome = await takeLead(services.intake, {
    body,
    meta,
    business: { promise: services.promise, serviceArea: services.serviceArea },
    idempotency: () => {
      const key = parseIdempotencyKey(request.headers.get('idempotency-key'));
      return key === undefined ? undefined : { key, boundTo: body };
    },
  });
  switch (outcome.kind) {
    case 'created':
    case 'replayed': {
      // What happens next is the promise stored with the lead: a replay says the same.
      const next = { outsideArea: outcome.receipt.inServiceArea === false, ...keptPromise(outcome) };
      const receipt = { ...outcome.receipt, whatHappensNext: whatHappensNext(new Date(outcome.receipt.receivedAt), services.promise, next) };
      return jsonResponse(201, receipt, outcome.kind === 'replayed' ? { 'Idempotent-Replayed': 'true' } : {});
    }
    case 'invalid': {
      const { errors, consentMissing } = outcome;
      const others = errors.length > 1 ? `; ${plural(errors.length - 1, 'other field problem')} ${whereListed(errors.length, true)}` : '';
      throw consentMissing
        ? new Problem('consent_required', `communicationsConsent must be true${others}.`, { errors })
        : new Problem('validation_failed', `${plural(errors.length, 'field problem')} found; ${whereListed(errors.length)}.`, { errors });
    }
    case 'key_reused':
      throw new Problem('idempotency_key_reused', `This Idempotency-Key was used in the last ${REPLAY_WINDOW_TEXT} with a different body.`);
    case 'duplicate':
      throw new Problem('duplicate_submission', `The same lead was already accepted in the last ${REPLAY_WINDOW_TEXT}.`, {
        leadId: outcome.leadId,
        reference: outcome.reference,
        whatHappensNext: whatHappensNext(new Date(outcome.receivedAt), services.promise, {
          outsideArea: outcome.inServiceArea === false,
          ...keptPromise(outcome),
        }),
      });
    case 'unavailable':
      throw unavailable(outcome.maybeStored, outcome.cause, ctx);
    case 'held':
      // The API holds nothing back: only a door's own `admit` does.
      throw new Error('a lead held back without a reason');
  }
}

/** The 503 of a store that could not take a lead, logged once with what the store said. */
export function unavailable(maybeStored: boolean, cause: Error, ctx: ApiContext): Problem {
  ctx.services.logger.error({ reqId: ctx.request.id, err: cause }, maybeStored ? 'lead store connection lost during commit' : 'lead store unavailable');
  const detail = maybeStored
    ? 'The connection to the lead store failed while this lead was being committed, so it may have been stored. ' +
      'Retrying with the same Idempotency-Key, or the same body, cannot store it twice.'
    : 'The lead store cannot be reached or cannot write at the moment; nothing was stored.';
  return new Problem('service_unavailable', detail, {}, { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) });
}
