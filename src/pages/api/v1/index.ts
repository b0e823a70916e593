import type { APIRoute } from 'astro';
import { handleStatusRequest } from '../../../http/status-handler.ts';

export const prerender = false;
export const ALL: APIRoute = ({ request, locals }) => handleStatusRequest(request, locals);
