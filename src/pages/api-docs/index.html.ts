import type { APIRoute } from 'astro';
import { publishedApiDocs } from '../../discovery/api-docs.ts';
import { asPublished } from '../../discovery/published.ts';

export const prerender = true;
export const GET: APIRoute = async () => new Response(asPublished((await publishedApiDocs()).html));
