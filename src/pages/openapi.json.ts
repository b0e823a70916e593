import type { APIRoute } from 'astro';
import { publishedDocument } from '../discovery/published.ts';

export const prerender = true;
export const GET: APIRoute = async () => new Response(JSON.stringify(await publishedDocument(), null, 2));
