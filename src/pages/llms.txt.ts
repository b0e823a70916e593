import type { APIRoute } from 'astro';
import { llmsTxt } from '../discovery/llms-txt.ts';
import { asPublished, publishedDocument } from '../discovery/published.ts';
import { publishedOffer } from '../site/form-words.ts';

export const prerender = true;
export const GET: APIRoute = async () => new Response(asPublished(llmsTxt(await publishedDocument(), await publishedOffer())));
