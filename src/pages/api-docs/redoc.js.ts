import type { APIRoute } from 'astro';
import { publishedApiDocs } from '../../discovery/api-docs.ts';
import { asPublished } from '../../discovery/published.ts';

// Redoc's script, which `/api-docs` loads after its plain reference or on demand.
export const prerender = true;
export const GET: APIRoute = async () => new Response(asPublished((await publishedApiDocs()).script));
