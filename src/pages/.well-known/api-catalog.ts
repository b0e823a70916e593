import type { APIRoute } from 'astro';
import { getConfig } from '../../config/config.ts';
import { apiCatalog } from '../../discovery/api-catalog.ts';

export const prerender = true;
// Written to a file without an extension; the server sends it with the RFC 9727 media type.
export const GET: APIRoute = () => new Response(JSON.stringify(apiCatalog(getConfig().siteUrl), null, 2));
