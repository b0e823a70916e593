/**
 * Astro middleware, run for every on-demand request under `astro dev`, our server or any adapter:
 * hands the process's services and this request's facts to the route as `locals`, checks a web
 * form submission before its action reads it (`http/form-guard.ts`), lets only the signed-in office
 * staff past `/office` (`http/office-guard.ts`), and puts the security headers of its class and the
 * request id on what the route answers.
 */
import { randomUUID } from 'node:crypto';
import { defineMiddleware } from 'astro:middleware';
import { isApiPath } from './http/routes.ts';
import { securityHeaders } from './http/security-headers.ts';
import { services } from './app/services.ts';
import { guardFormSubmission } from './http/form-guard.ts';
import { guardOffice, isOfficePath, OFFICE_HEADERS } from './http/office-guard.ts';
import { isFormSubmission } from './web-forms/origin.ts';

export const onRequest = defineMiddleware(async (context, next) => {
  // Prerendering at build time needs no store, and must not open one.
  if (context.isPrerendered) return next();
  const locals = context.locals;
  // Our server hands the services over with each request, so that no request waits a turn for
  // them; elsewhere (astro dev, another adapter) they are opened, once, here.
  locals.services ??= await services();
  // Our server gives the request id (already on the response it writes), the client address (with
  // its TRUST_PROXY rule) and the Host it was sent to; elsewhere they are made here from what Astro knows.
  const idOnResponse = locals.request !== undefined;
  locals.request ??= { id: randomUUID(), clientAddress: context.clientAddress, host: context.request.headers.get('host') ?? undefined };
  const headers = securityHeaders(locals.services.config);
  const path = context.url.pathname;
  const actions = path.startsWith('/_actions/');
  // Action answers echo what the person typed: never cached, like the pages that show them.
  const set: Record<string, string> = {
    ...(isApiPath(path) || actions ? headers.api : headers.onDemandPage),
    ...(actions && NO_STORE),
  };
  if (!idOnResponse) set['X-Request-Id'] = locals.request.id;
  if (isOfficePath(path)) {
    Object.assign(set, OFFICE_HEADERS);
    const gate = await guardOffice(context.request, context.url, locals);
    if (gate) return withHeaders(gate, set);
  } else if (!isApiPath(path) && isFormSubmission(context.request.method, context.url)) {
    const gate = await guardFormSubmission(context.request, locals);
    if (!gate.passed) return withHeaders(gate.response, { ...set, ...NO_STORE });
    locals.formBudget = gate.budget;
  }
  const response = await next();
  // Astro sends pages as bare text/html; the pages are UTF-8.
  if (response.headers.get('content-type') === 'text/html') set['Content-Type'] = 'text/html; charset=utf-8';
  return withHeaders(response, set);
});

const NO_STORE = { 'Cache-Control': 'no-store' } as const;

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
