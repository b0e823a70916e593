import type { APIRoute } from 'astro';
import { handleLeadRequest } from '../../http/leads-handler.ts';

export const prerender = false;
/** Deprecated alias of `/api/v1/leads`: the same handler, which adds the deprecation headers. */
export const ALL: APIRoute = ({ request, locals }) => handleLeadRequest(request, locals, '/api/leads');
