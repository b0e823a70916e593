import type { APIRoute } from 'astro';
import { llmsTxt } from '../discovery/llms-txt.ts';
import { publishedDocument } from '../discovery/published.ts';
import { publishedOffer } from '../web-forms/words.ts';

export const prerender = true;
export const GET: APIRoute = async () => new Response(llmsTxt(await publishedDocument(), await publishedOffer()));
