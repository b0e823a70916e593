/**
 * Same-origin check for the web forms' submissions (a form POST to a page with `?_action=`, or the
 * enhanced form's call to `/_actions/<name>`): a page on another site cannot make a person's
 * browser submit a lead. The origin the browser names (`Origin`, else `Referer`) must be this
 * site's, as `SITE_URL` names it or as the browser addressed it (its Host); a browser that names
 * none must say `Sec-Fetch-Site: same-origin`. Astro's own check (`security.checkOrigin`) is off:
 * it judges by the URL our server pins, not by the address the browser used behind a TLS proxy.
 * (A form action posted to another path does nothing: see `src/actions/index.ts`.)
 */

/** Whether a request is a web-form submission the check applies to. */
export function isFormSubmission(method: string, url: URL): boolean {
  return method === 'POST' && (url.searchParams.has('_action') || url.pathname.startsWith('/_actions/'));
}

/** Whether the browser that sent `headers` was on this site. */
export function sameOrigin(headers: Headers, siteUrl: string, sentHost: string | undefined): boolean {
  const named = headers.get('origin') ?? headers.get('referer');
  if (named === null) return headers.get('sec-fetch-site') === 'same-origin';
  let origin: URL;
  try {
    origin = new URL(named);
  } catch {
    return false;
  }
  return origin.origin === new URL(siteUrl).origin || (sentHost !== undefined && origin.host === sentHost.toLowerCase());
}
