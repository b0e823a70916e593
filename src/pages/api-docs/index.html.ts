import type { APIRoute } from 'astro';
import { apiDocsHtml } from '../../discovery/api-docs.ts';
import { publishedDocument } from '../../discovery/published.ts';

export const prerender = true;
export const GET: APIRoute = async () => new Response(apiDocsHtml(await publishedDocument()));
