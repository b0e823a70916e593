import type { APIRoute } from 'astro';
import { publishedApiDocs } from '../../discovery/api-docs.ts';

export const prerender = true;
export const GET: APIRoute = async () => new Response((await publishedApiDocs()).html);
