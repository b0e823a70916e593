/**
 * Security headers by response class, computed once per configuration. Whoever makes an answer
 * sets them: the middleware on what Astro renders on demand (the API, on-demand pages), our server
 * on the static files and on the few answers it makes itself.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../config/config.ts';

export type HeaderSet = Readonly<Record<string, string>>;

/** The header sets of the response classes that do not depend on a file's content. */
export interface SecurityHeaders {
  /** API answers and problems: nothing may render from them. */
  api: HeaderSet;
  /** HTML pages, before their own Content-Security-Policy (see `pageCsp`). */
  html: HeaderSet;
  /**
   * Pages rendered on demand (the web forms): the page headers, a policy that allows this site's
   * own script files and nothing inline, and no caching (they carry a form token and, after an
   * error, what the person typed).
   */
  onDemandPage: HeaderSet;
  /** Every other file (CSS, JSON documents, text, images). */
  file: HeaderSet;
}

const built = new Map<string, SecurityHeaders>();

/** The header sets for this configuration (HSTS only when `SITE_URL` is https). */
export function securityHeaders(config: Pick<Config, 'siteUrl'>): SecurityHeaders {
  let headers = built.get(config.siteUrl);
  if (!headers) built.set(config.siteUrl, (headers = buildSecurityHeaders(config.siteUrl)));
  return headers;
}

function buildSecurityHeaders(siteUrl: string): SecurityHeaders {
  const common: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    ...(siteUrl.startsWith('https:') && { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' }),
  };
  const locked = "default-src 'none'; frame-ancestors 'none'";
  return Object.freeze({
    api: { ...common, 'Content-Security-Policy': locked },
    html: {
      ...common,
      'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'X-Frame-Options': 'DENY',
    },
    file: { ...common, 'Content-Security-Policy': locked },
    onDemandPage: {
      ...common,
      'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'X-Frame-Options': 'DENY',
      'Content-Security-Policy': pageCsp('<script src="/_astro/"></script>', '/'),
      'Cache-Control': 'no-store',
    },
  });
}

/**
 * The pages allowed inline scripts and styles: Redoc's `/api-docs`, which the project builds itself.
 * Anywhere else they are refused by the build (`src/integrations/inline-code-guard.ts`) and never
 * allowed by a page's Content-Security-Policy, so that no page text can bring a script with it.
 */
export const INLINE_CODE_PAGES: ReadonlySet<string> = new Set(['/api-docs']);

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** The contents of a page's inline scripts (`<script>` elements with content and no `src`). */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(SCRIPT)].filter((m) => !/\bsrc\s*=/i.test(m[1]!) && m[2]!.length > 0).map((m) => m[2]!);
}

/** What a page carries that runs or styles inline: scripts, `<style>` elements, `on…=` handler attributes. */
export function inlineCode(html: string): string[] {
  return [
    ...inlineScripts(html).map(() => 'an inline <script>'),
    ...(/<style\b/i.test(html) ? ['a <style> element'] : []),
    ...[...html.matchAll(/<[a-z][^>]*?\s(on[a-z]+)\s*=/gi)].map((m) => `an ${m[1]!.toLowerCase()}= attribute`),
  ];
}

/**
 * The Content-Security-Policy of one HTML page at `path`, from its content: scripts only from this
 * site's own files (when the page loads any), and inline scripts and styles only on the pages of
 * `INLINE_CODE_PAGES`, scripts then allowed by their SHA-256 hashes and nothing else (never eval).
 */
export function pageCsp(html: string, path: string): string {
  const inlineAllowed = INLINE_CODE_PAGES.has(path.length > 1 ? path.replace(/\/$/, '') : path);
  const inline = inlineAllowed ? inlineScripts(html) : [];
  const hashes = inline.map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  // This site's files: a script element's `src`, or a module an allowed inline script imports (how
  // /api-docs loads Redoc after its text).
  const loadsFiles = [...html.matchAll(SCRIPT)].some((m) => /\bsrc\s*=/i.test(m[1]!)) || inline.some((body) => /\bimport\(\s*['"]\//.test(body));
  const scriptSources = [...new Set(hashes), ...(loadsFiles ? ["'self'"] : [])];
  return [
    "default-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `style-src 'self'${inlineAllowed && /<style\b/i.test(html) ? " 'unsafe-inline'" : ''}`,
    `script-src ${scriptSources.length > 0 ? scriptSources.join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * What `npm run dev` adds to a page's Content-Security-Policy, and nothing more: found by loading
 * every page under `astro dev` in Chromium and reading the policy violations in its console
 * (`tests/e2e/dev-pages.browser.test.ts` holds it). Never in a build: only the Astro middleware
 * adds them, behind `import.meta.env.DEV`, which the build replaces with `false`.
 * - `style-src 'unsafe-inline'`: Vite serves each stylesheet as an inline `<style>` element (and
 *   its hot reload replaces them the same way); without it the pages render unstyled and the
 *   forms' spam trap shows.
 * Not needed, as checked: the hot-reload WebSocket (`ws:` on the page's own host and port, which
 * `'self'` allows) and Vite's client script (a file of this site, `/@vite/client`).
 */
export const DEV_CSP_ADDITIONS: Readonly<Record<string, readonly string[]>> = Object.freeze({ 'style-src': ["'unsafe-inline'"] });

/** `csp` with `DEV_CSP_ADDITIONS` added to its directives (a directive it lacks is left as it is). */
export function devCsp(csp: string): string {
  return csp
    .split(';')
    .map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      const extra = (DEV_CSP_ADDITIONS[name!] ?? []).filter((source) => !sources.includes(source));
      return [name, ...sources, ...extra].join(' ');
    })
    .join('; ');
}
