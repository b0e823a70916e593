/**
 * Facts about the service that the API, the discovery documents and the pages all state: one copy,
 * so that `GET /api/v1`, `/llms.txt`, the API catalog and `/developers` say the same thing.
 */
import { RATE_LIMIT } from './limiter/rate-limiter.ts';

export const SERVICE_NAME = 'Lead Intake API';
export const API_VERSION = '1.0.0';

/** The rules every caller, person or agent, must follow (spec section 1). */
export const USAGE_RULES = [
  'Submit a lead only when the customer has explicitly asked the company to contact them.',
  'Do not submit test, unsolicited, duplicate or fabricated leads.',
  'Do not submit a lead without the customer\'s authorization; on a quote request, communicationsConsent is true only because the customer said so.',
  'Do not probe or POST to unadvertised registration paths; send no Authorization header, token, API key or password.',
] as const;

/** What the product does not offer (spec section 1), stated so that nobody goes looking for it. */
export const NOT_OFFERED = [
  'public sandbox',
  'API-key program',
  'official CLI',
  'SDK',
  'MCP server',
  'webhook product',
  'agent registration',
  'access to customer, cleaner, schedule, payment or third-party field-service records',
] as const;

/** The rate-limit policy in the draft-ietf-httpapi-ratelimit-headers form sent as `RateLimit-Policy`. */
export const RATE_LIMIT_POLICY = `${RATE_LIMIT.points};w=${RATE_LIMIT.windowSeconds}`;

/** Absolute URLs of everything the service publishes, built from `SITE_URL` alone. */
export function serviceLinks(siteUrl: string) {
  return {
    status: `${siteUrl}/api/v1`,
    leads: `${siteUrl}/api/v1/leads`,
    deprecatedLeads: `${siteUrl}/api/leads`,
    openapi: `${siteUrl}/openapi.json`,
    apiDocs: `${siteUrl}/api-docs`,
    apiCatalog: `${siteUrl}/.well-known/api-catalog`,
    llmsTxt: `${siteUrl}/llms.txt`,
    developers: `${siteUrl}/developers`,
    errors: `${siteUrl}/developers/errors`,
    deprecationPolicy: `${siteUrl}/developers#deprecation-policy`,
    terms: `${siteUrl}/terms`,
    privacy: `${siteUrl}/privacy`,
  };
}
