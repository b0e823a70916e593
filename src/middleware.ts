/**
 * Astro middleware, run for every on-demand request under `astro dev`, our server or any adapter:
 * hands the process's services and this request's facts to the route as `locals`, and puts the
 * security headers of its class and the request id on what the route answers.
 */
import { randomUUID } from 'node:crypto';
import { defineMiddleware } from 'astro:middleware';
import { isApiPath } from './http/routes.ts';
import { securityHeaders } from './http/security-headers.ts';
import { services } from './services.ts';

export const onRequest = defineMiddleware(async (context, next) => {
  // Prerendering at build time needs no store, and must not open one.
  if (context.isPrerendered) return next();
  const locals = context.locals;
  locals.services = await services();
  // Our server gives the request id and the client address (with its TRUST_PROXY rule); elsewhere
  // (astro dev, another adapter) they are made here from what Astro knows.
  locals.request ??= { id: randomUUID(), clientAddress: context.clientAddress };
  const headers = securityHeaders(locals.services.config);
  return withHeaders(await next(), { ...(isApiPath(context.url.pathname) ? headers.api : headers.html), 'X-Request-Id': locals.request.id });
});

/** `response` with `headers` added; a response whose headers are immutable (a redirect) is copied first. */
function withHeaders(response: Response, headers: Readonly<Record<string, string>>): Response {
  let target = response;
  try {
    for (const name in headers) target.headers.set(name, headers[name]!);
  } catch {
    target = new Response(response.body, response);
    for (const name in headers) target.headers.set(name, headers[name]!);
  }
  return target;
}
