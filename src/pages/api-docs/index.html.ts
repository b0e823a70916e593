import type { APIRoute } from 'astro';
import { getConfig } from '../../config.ts';
import { apiDocsHtml } from '../../discovery/api-docs.ts';

export const prerender = true;
export const GET: APIRoute = () => new Response(apiDocsHtml(getConfig().siteUrl));
