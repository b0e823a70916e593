/**
 * `POST /api/v1/leads` and its deprecated alias `POST /api/leads`: one handler, the contract's
 * order of checks (first failure wins), rate-limit headers on every answer.
 */
import { rateLimitKey } from './client-address.ts';
import { submitLead } from '../leads/service.ts';
import { validateLead } from '../leads/validate.ts';
import { Problem } from '../problems/problem.ts';
import { checkMethod, withProblemDetails } from './api.ts';
import type { ApiContext } from './context.ts';
import type { RateLimitState } from '../limiter/rate-limiter.ts';
import { jsonResponse, rateLimitHeaders, setAll } from './headers.ts';
import { parseIdempotencyKey } from './idempotency-key.ts';
import { discardBody, parseJson, readBodyText } from './read-body.ts';

/** The paths a lead can come by. */
export type LeadPath = '/api/v1/leads' | '/api/leads';

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

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Steps 1 to 3 of the contract's order: what refuses a submission before its body is read. */
function refuseUnread(request: Request, limit: RateLimitState): Problem | undefined {
  if (!limit.allowed) {
    return new Problem('rate_limited', `This client sent more than ${limit.limit} submissions within a minute; the limit resets in ${plural(limit.resetSeconds, 'second')}.`);
  }
  if (request.headers.has('authorization')) {
    return new Problem('authorization_not_accepted', 'The request carried an Authorization header; this API is anonymous and accepts no credentials.');
  }
  if (!isJsonMediaType(request.headers.get('content-type'))) {
    return new Problem('unsupported_media_type', request.headers.get('content-type') ? 'The request body was not sent as application/json (UTF-8).' : 'The request has no Content-Type header; application/json was expected.');
  }
  return undefined;
}

/** Handles a request to either lead path. */
export function handleLeadRequest(request: Request, ctx: ApiContext, path: LeadPath): Promise<Response> {
  const { services } = ctx;
  const headers = new Headers(path === '/api/leads' ? services.aliasHeaders : undefined);
  const clientKey = rateLimitKey(ctx.request.clientAddress);
  return withProblemDetails(ctx, headers, async () => {
    if (request.method !== 'POST') {
      setAll(headers, rateLimitHeaders(await services.limiter.peek(clientKey)));
      return checkMethod(request, ['POST'])!;
    }
    const limit = await services.limiter.consume(clientKey);
    setAll(headers, rateLimitHeaders(limit));
    const refusal = refuseUnread(request, limit);
    if (refusal) {
      await discardBody(request);
      throw refusal;
    }
    const body = parseJson(await readBodyText(request));
    const validation = validateLead(body);
    if (!validation.ok) {
      const { errors, consentMissing } = validation;
      throw consentMissing
        ? new Problem('consent_required', `communicationsConsent must be true${errors.length > 1 ? `; ${plural(errors.length - 1, 'other field problem')} also listed in errors` : ''}.`, { errors })
        : new Problem('validation_failed', `${plural(errors.length, 'field problem')} found; each is listed in errors.`, { errors });
    }
    const idempotencyKey = parseIdempotencyKey(request.headers.get('idempotency-key'));
    const meta = { receivedVia: path, clientAddress: ctx.request.clientAddress, userAgent: request.headers.get('user-agent'), now: new Date() };
    const outcome = await submitLead(services.store, validation.lead, body, meta, idempotencyKey);
    switch (outcome.kind) {
      case 'created':
      case 'replayed':
        return jsonResponse(201, outcome.receipt, outcome.kind === 'replayed' ? { 'Idempotent-Replayed': 'true' } : {});
      case 'key_reused':
        throw new Problem('idempotency_key_reused', 'This Idempotency-Key was used in the last 24 hours with a different body.');
      case 'duplicate':
        throw new Problem('duplicate_submission', 'The same lead was already accepted in the last 24 hours.', { leadId: outcome.leadId });
    }
  });
}
