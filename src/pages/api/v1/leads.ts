import type { APIRoute } from 'astro';
import { handleLeadRequest } from '../../../http/leads-handler.ts';

export const prerender = false;
export const ALL: APIRoute = ({ request, locals }) => handleLeadRequest(request, locals, '/api/v1/leads');
