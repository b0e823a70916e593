/** `GET /api/v1` (and HEAD): discovery and status, 503 with the same document when the store is down. */
import type { Config } from '../config/config.ts';
import {
  agentGuidance,
  ENVIRONMENT_RULE,
  API_VERSION,
  NOT_OFFERED,
  RATE_LIMIT,
  RATE_LIMIT_POLICY,
  SERVICE_NAME,
  USAGE_RULES,
  serviceLinks,
  type Offer,
} from '../service-facts.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../leads/intake.ts';
import { servedPostalCodes, type ServiceArea } from '../leads/service-area.ts';
import { RULES } from '../service-rules.ts';
import type { CallBackPromise } from '../leads/next-step.ts';
import { closedDaysAhead } from '../site/from-content.ts';
import { hoursLine } from '../site/opening-hours.ts';
import { publishedPrices } from '../prices.ts';
import type { LeadIntake } from '../leads/store.ts';
import type { ApiContext } from './context.ts';
import { discoveryLinkHeader, jsonTextResponse, setAll } from './headers.ts';

/** The discovery document of `GET /api/v1`. */
export function statusDocument(
  config: Pick<Config, 'siteUrl' | 'environment' | 'leadsDeprecationDate' | 'leadsSunsetDate'>,
  offer: Offer,
  area: ServiceArea,
  available: boolean,
  promise?: CallBackPromise,
  now = new Date(),
) {
  const links = serviceLinks(config.siteUrl);
  return {
    name: SERVICE_NAME,
    version: API_VERSION,
    status: available ? 'ok' : 'unavailable',
    environment: config.environment,
    deployment: ENVIRONMENT_RULE[config.environment],
    description: 'Accepts cleaning quote requests and contact messages that a customer has asked the company to act on.',
    authentication: 'none',
    links: {
      leads: links.leads,
      openapi: links.openapi,
      leadSchema: links.leadSchema,
      apiDocs: links.apiDocs,
      apiCatalog: links.apiCatalog,
      llmsTxt: links.llmsTxt,
      developers: links.developers,
      errors: links.errors,
      terms: links.terms,
      privacy: links.privacy,
    },
    rateLimit: {
      limit: RATE_LIMIT.points,
      windowSeconds: RATE_LIMIT.windowSeconds,
      policy: RATE_LIMIT_POLICY,
      appliesTo: [links.leads, links.deprecatedLeads],
    },
    usageRules: USAGE_RULES,
    services: offer.services,
    ...(offer.prices && { priceGuide: publishedPrices(offer.prices) }),
    contactTopics: offer.contactTopics,
    serviceArea: { towns: area.towns.map((t) => t.town), postalCodes: servedPostalCodes(area), outside: RULES.serviceArea },
    ...(promise && {
      office: { timeZone: promise.timeZone, hours: promise.hours.map((h) => hoursLine(h.words)), closedDays: closedDaysAhead(promise, now) },
    }),
    guidance: agentGuidance(offer),
    notOffered: NOT_OFFERED,
    deprecated: [
      {
        path: links.deprecatedLeads,
        successor: links.leads,
        deprecatedSince: config.leadsDeprecationDate.toISOString(),
        sunset: config.leadsSunsetDate?.toISOString() ?? null,
        policy: links.deprecationPolicy,
      },
    ],
  };
}

// The document depends on the configuration, the store's health and the day (the closed days still to come): built once per day.
const documents = new WeakMap<object, { ok: string; unavailable: string; link: string; day: string; minute: number }>();
function cachedDocuments(config: Config, offer: Offer, area: ServiceArea, promise: CallBackPromise) {
  const now = new Date();
  let cached = documents.get(config);
  // Which closed day comes next is looked at once a minute, not on every request.
  const minute = Math.floor(now.getTime() / 60_000);
  if (cached?.minute === minute) return cached;
  const day = closedDaysAhead(promise, now)[0]?.date ?? '';
  if (cached?.day === day) cached.minute = minute;
  else {
    cached = {
      ok: JSON.stringify(statusDocument(config, offer, area, true, promise, now)),
      unavailable: JSON.stringify(statusDocument(config, offer, area, false, promise, now)),
      link: discoveryLinkHeader(config.siteUrl),
      day,
      minute,
    };
    documents.set(config, cached);
  }
  return cached;
}

// GET /api/v1 is anonymous and not rate limited: a flood of it must not become a flood of store
// round trips (a PostgreSQL pool is small). One check at a time, its answer kept for a second.
const HEALTH_TTL_MS = 1000;
const health = new WeakMap<object, { at: number; check: Promise<boolean> }>();
function storeAvailable(store: Pick<LeadIntake, 'ping'>): Promise<boolean> {
  const cached = health.get(store);
  if (cached && Date.now() - cached.at < HEALTH_TTL_MS) return cached.check;
  const check = store.ping().then(
    () => true,
    () => false,
  );
  health.set(store, { at: Date.now(), check });
  return check;
}

/** Handles GET and HEAD of `/api/v1`. No rate limit applies. */
export async function handleStatusRequest(request: Request, ctx: ApiContext, _route: unknown, headers: Headers): Promise<Response> {
  const { config, intake, offer, serviceArea, promise } = ctx.services;
  const cached = cachedDocuments(config, offer, serviceArea, promise);
  setAll(headers, { Link: cached.link });
  const available = await storeAvailable(intake);
  return available
    ? jsonTextResponse(200, cached.ok, {}, request.method)
    : jsonTextResponse(503, cached.unavailable, { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) }, request.method);
}
