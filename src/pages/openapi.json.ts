import type { APIRoute } from 'astro';
import { asPublished, publishedDocument } from '../discovery/published.ts';

export const prerender = true;
export const GET: APIRoute = async () => new Response(asPublished(JSON.stringify(await publishedDocument(), null, 2)));
