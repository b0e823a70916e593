/**
 * Astro middleware, run for every on-demand request under `astro dev`, our server or any adapter:
 * the process's public services and this request's facts on `locals` (given by our server, made
 * here elsewhere), then the front door (`src/http/front-door.ts`), which does the rest. Under
 * `astro dev` alone (`import.meta.env.DEV`, `false` in a build), the pages' security headers are
 * the built server's, with the additions Vite needs (`src/http/dev-headers.ts`).
 */
import { randomUUID } from 'node:crypto';
import { defineMiddleware } from 'astro:middleware';
import { composition } from './app/services.ts';
import { getConfig } from './config/config.ts';
import { devOnDemand, devPrerendered } from './http/dev-headers.ts';
import { answerOnDemand } from './http/front-door.ts';

export const onRequest = defineMiddleware(async (context, next) => {
  // Prerendering at build time needs no store, and must not open one; dev renders these pages on
  // each request, and gives them the headers the built server sends with their files.
  if (context.isPrerendered) return import.meta.env.DEV ? devPrerendered(await next(), context.url.pathname, getConfig()) : next();
  const locals = context.locals;
  const { services, office } = await composition();
  locals.services ??= services;
  // Our server gives the request id (already on the response it writes), the client address (with
  // its TRUST_PROXY rule) and the Host it was sent to; elsewhere they are made here from what Astro knows.
  const requestIdSent = locals.request !== undefined;
  locals.request ??= { id: randomUUID(), clientAddress: context.clientAddress, host: context.request.headers.get('host') ?? undefined };
  const response = await answerOnDemand(context.request, context.url, locals, office, next, { requestIdSent });
  return import.meta.env.DEV ? devOnDemand(response) : response;
});
