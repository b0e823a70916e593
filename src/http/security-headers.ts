/**
 * Security headers by response class, computed once per configuration. Whoever makes an answer
 * sets them: the middleware on what Astro renders on demand (the API, on-demand pages), our server
 * on the static files and on the few answers it makes itself.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../config.ts';

export type HeaderSet = Readonly<Record<string, string>>;

/** The header sets of the response classes that do not depend on a file's content. */
export interface SecurityHeaders {
  /** API answers and problems: nothing may render from them. */
  api: HeaderSet;
  /** HTML pages, before their own Content-Security-Policy (see `pageCsp`). */
  html: HeaderSet;
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
  });
}

const INLINE_SCRIPT = /<script\b[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * The Content-Security-Policy of one HTML page, from its content: no script at all unless the page
 * carries inline scripts (only Redoc's `/api-docs` does), which are then allowed by their SHA-256
 * hashes and nothing else. Inline styles are allowed only on a page that has them (Redoc's again).
 */
export function pageCsp(html: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)]
    .filter((m) => !/\bsrc\s*=/.test(m[0].slice(0, m[0].indexOf('>'))) && m[1]!.length > 0)
    .map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
  const inlineStyles = /<style\b/i.test(html);
  return [
    "default-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `style-src 'self'${inlineStyles ? " 'unsafe-inline'" : ''}`,
    `script-src ${hashes.length > 0 ? [...new Set(hashes)].join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
