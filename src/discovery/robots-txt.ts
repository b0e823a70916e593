/**
 * `/robots.txt`: everything on the site is public and may be read, the discovery documents first;
 * only the lead paths, which take a POST and nothing else, are left out. It names nothing secret.
 */
import { API_PATHS, SERVICE_NAME, serviceLinks } from '../service-facts.ts';

export function robotsTxt(siteUrl: string): string {
  const l = serviceLinks(siteUrl);
  return [
    `# ${SERVICE_NAME}: every page and document here is public.`,
    `# Agents: start at ${l.llmsTxt}, ${l.apiCatalog} or ${l.openapi}.`,
    'User-agent: *',
    'Allow: /',
    `# The lead paths answer POST only: nothing to fetch.`,
    `Disallow: ${API_PATHS.leads}`,
    `Disallow: ${API_PATHS.deprecatedLeads}`,
    '',
  ].join('\n');
}
