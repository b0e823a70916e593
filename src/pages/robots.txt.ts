import type { APIRoute } from 'astro';
import { getConfig } from '../config/config.ts';
import { robotsTxt } from '../discovery/robots-txt.ts';

export const prerender = true;
export const GET: APIRoute = () => new Response(robotsTxt(getConfig().siteUrl));
