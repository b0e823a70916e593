/**
 * Same-origin check for the web forms' submissions (a form POST to a page with `?_action=`, or the
 * enhanced form's call to `/_actions/<name>`): a page on another site cannot make a person's
 * browser submit a lead. The origin the browser names (`Origin`, else `Referer`) must be this
 * site's, scheme and host, as `SITE_URL` names it (without it, every loopback name at the port the
 * server really listens on: `src/config/site-origins.ts`): never the request's own `Host`, which
 * whoever sends the request chooses. A browser that names none must say `Sec-Fetch-Site: same-origin`.
 * Astro's own check (`security.checkOrigin`) is off: it judges by the URL our server pins, not by
 * the address the browser used behind a TLS proxy.
 * (A form action posted to another path does nothing: see `src/actions/index.ts`.)
 */

import type { RequestInfo } from '../roles/index.ts';

/** Whether a request is a web-form submission the check applies to. */
export function isFormSubmission(method: string, url: URL): boolean {
  return method === 'POST' && (url.searchParams.has('_action') || url.pathname.startsWith('/_actions/'));
}

/** Whether the browser that sent `headers` was on this site, `siteUrl` (or one of its origins: `siteOrigins`). */
export function sameOrigin(headers: Headers, siteUrl: string | readonly string[]): boolean {
  const named = headers.get('origin') ?? headers.get('referer');
  if (named === null) return headers.get('sec-fetch-site') === 'same-origin';
  try {
    const origin = new URL(named).origin;
    return (typeof siteUrl === 'string' ? [siteUrl] : siteUrl).some((site) => origin === new URL(site).origin);
  } catch {
    return false;
  }
}

/** The origin a refused browser named (`Origin`, else `Referer`'s), for the request's log line: `none` when it named none. */
export function namedOrigin(headers: Headers): string {
  const named = headers.get('origin') ?? headers.get('referer');
  if (named === null) return 'none';
  // A page without an origin of its own (a sandboxed frame, a file) sends the word itself.
  if (named === 'null') return 'null';
  try {
    return new URL(named).origin;
  } catch {
    return 'not a URL';
  }
}

/** Whether `request` came from one of `origins`; when not, its log line names the origin it came from. */
export function fromSiteOrigin(request: Request, info: RequestInfo, origins: readonly string[]): boolean {
  if (sameOrigin(request.headers, origins)) return true;
  if (info.logNotes) info.logNotes.refusedOrigin = namedOrigin(request.headers);
  return false;
}
