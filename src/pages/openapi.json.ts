import type { APIRoute } from 'astro';
import { getConfig } from '../config.ts';
import { openApiDocument } from '../discovery/openapi.ts';

export const prerender = true;
export const GET: APIRoute = () => new Response(JSON.stringify(openApiDocument(getConfig().siteUrl), null, 2));
