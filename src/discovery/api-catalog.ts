/** `/.well-known/api-catalog`: an RFC 9727 API catalog, an RFC 9264 linkset, built from `SITE_URL`. */
import { SCHEMA_MEDIA_TYPE, serviceLinks } from '../service-facts.ts';

/** The catalog: one API, anchored at its status endpoint, with its description, its request body's schema, docs, status and policy. */
export function apiCatalog(siteUrl: string) {
  const links = serviceLinks(siteUrl);
  return {
    linkset: [
      {
        anchor: links.status,
        'service-desc': [{ href: links.openapi, type: 'application/json', title: 'OpenAPI 3.1 description' }],
        describedby: [{ href: links.leadSchema, type: SCHEMA_MEDIA_TYPE, title: 'JSON Schema of the lead request body' }],
        'service-doc': [
          { href: links.apiDocs, type: 'text/html', title: 'API reference' },
          { href: links.developers, type: 'text/html', title: 'Developer guide' },
        ],
        status: [{ href: links.status, type: 'application/json' }],
        'service-meta': [{ href: links.deprecationPolicy, type: 'text/html', title: 'Versioning and deprecation policy' }],
      },
    ],
  };
}
