import type { APIRoute } from 'astro';
import { leadSubmissionSchema } from '../../discovery/lead-schema.ts';
import { asPublished, publishedDocument } from '../../discovery/published.ts';

export const prerender = true;
export const GET: APIRoute = async () => new Response(asPublished(JSON.stringify(leadSubmissionSchema(await publishedDocument()), null, 2)));
