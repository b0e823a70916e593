/**
 * Astro's image endpoint (`/_image`), which it serves on every on-demand site whether or not a page
 * uses `astro:assets`: this site uses none, so the route is this module (`image.endpoint` in
 * `astro.config.mjs`), and it answers as any unknown path does, with the site's 404 page.
 */
import type { APIRoute } from 'astro';

export const prerender = false;

/** Astro's signal that a route's answer is its error page (`ASTRO_ERROR_HEADER` in Astro's core). */
const RENDER_ERROR_PAGE = { 'X-Astro-Error': 'true' };

export const ALL: APIRoute = () => new Response(null, { status: 404, headers: RENDER_ERROR_PAGE });
