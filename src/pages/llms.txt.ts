import type { APIRoute } from 'astro';
import { getConfig } from '../config.ts';
import { llmsTxt } from '../discovery/llms-txt.ts';

export const prerender = true;
export const GET: APIRoute = () => new Response(llmsTxt(getConfig().siteUrl));
