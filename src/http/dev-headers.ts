/**
 * The security headers under `npm run dev` (Astro's dev server), so that what an editor sees is
 * what the built server sends: the prerendered pages and documents, which the built server serves
 * as files with their headers (`src/server/static-files.ts`), get the same set here, and every
 * page's Content-Security-Policy gets the few additions Vite needs (`DEV_CSP_ADDITIONS`).
 * Called by the Astro middleware under `import.meta.env.DEV` alone: never in a build.
 */
import type { Config } from '../config/config.ts';
import { CONTENT_TYPES, fileHeaders } from './file-types.ts';
import { withHeaders } from './response-body.ts';
import { devCsp, pageCsp, securityHeaders } from './security-headers.ts';

const CSP = 'Content-Security-Policy';

/** A prerendered page or document as dev renders it, with the headers the built server would send its file, and the dev additions. */
export async function devPrerendered(response: Response, path: string, config: Pick<Config, 'siteUrl'>): Promise<Response> {
  const security = securityHeaders(config);
  // A document (OpenAPI, llms.txt, the catalog, /api-docs' script): the media type and headers of its built file.
  // A page is what Astro renders as HTML, or an endpoint that writes an .html file (/api-docs).
  if (!/^text\/html\b/.test(response.headers.get('content-type') ?? '') && !path.endsWith('.html'))
    return withHeaders(response, { ...fileHeaders(path, path, config.siteUrl, 'public, max-age=0, must-revalidate'), ...security.file });
  const html = await response.text();
  const copy = new Response(html, response);
  return withHeaders(copy, { 'Content-Type': CONTENT_TYPES['.html']!, ...security.html, [CSP]: devCsp(pageCsp(html, path)) });
}

/** An on-demand answer of the front door, its policy (when it has one) with the dev additions. */
export function devOnDemand(response: Response): Response {
  const csp = response.headers.get(CSP);
  return csp === null ? response : withHeaders(response, { [CSP]: devCsp(csp) });
}
