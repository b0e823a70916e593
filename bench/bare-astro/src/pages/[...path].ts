// GET: a constant JSON (what GET /api/v1 would be with nothing of ours). POST: the body read as
// text, then a constant 201 (what a lead POST would be with no validation, limiter or store).
import type { APIRoute } from 'astro';

export const prerender = false;
const headers = { 'Content-Type': 'application/json' };

export const GET: APIRoute = () => new Response('{"name":"Lead Intake API","status":"ok"}', { headers });
export const POST: APIRoute = async ({ request }) => {
  await request.text();
  return new Response('{"status":"received"}', { status: 201, headers });
};
