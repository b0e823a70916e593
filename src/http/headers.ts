/** Header sets the API sends, each built by one function. */
import type { RateLimitState } from '../limiter/rate-limiter.ts';
import { RATE_LIMIT_POLICY, serviceLinks } from '../service-facts.ts';

/** `RateLimit-*` headers of a lead response, and `Retry-After` when the limit was exceeded. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
    'RateLimit-Policy': RATE_LIMIT_POLICY,
    ...(!state.allowed && { 'Retry-After': String(state.resetSeconds) }),
  };
}

/** The `Link` header of `GET /api/v1`: where the catalog, the description and the docs are. */
export function discoveryLinkHeader(siteUrl: string): string {
  const links = serviceLinks(siteUrl);
  return [
    `<${links.apiCatalog}>; rel="api-catalog"`,
    `<${links.openapi}>; rel="service-desc"; type="application/json"`,
    `<${links.apiDocs}>; rel="service-doc"; type="text/html"`,
    `<${links.llmsTxt}>; rel="describedby"; type="text/plain"`,
  ].join(', ');
}

/** A JSON response that is never cached. */
export function jsonResponse(status: number, body: unknown, headers: HeadersInit = {}): Response {
  return jsonTextResponse(status, JSON.stringify(body), headers);
}

/** A JSON response from an already serialised document (without a body for HEAD); never cached. */
export function jsonTextResponse(status: number, json: string, headers: HeadersInit = {}, method = 'GET'): Response {
  const h = new Headers(headers);
  h.set('Content-Type', 'application/json');
  h.set('Cache-Control', 'no-store');
  return new Response(method === 'HEAD' ? null : json, { status, headers: h });
}

/** Copies header values onto a `Headers`: how a handler collects what every answer must carry. */
export function setAll(target: Headers, values: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(values)) target.set(name, value);
}
