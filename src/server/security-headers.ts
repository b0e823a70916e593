/** Security headers by response class, computed once at start-up and set by the server on every response. */
import type { Config } from '../config.ts';

export type HeaderSet = Readonly<Record<string, string>>;

/** The header sets of the three response classes: API answers, HTML pages, other files. */
export interface SecurityHeaders {
  api: HeaderSet;
  html: HeaderSet;
  /** `/api-docs`: Redoc's self-contained page needs its inline scripts and styles. */
  apiDocs: HeaderSet;
  file: HeaderSet;
}

/** Builds the header sets for this configuration (HSTS only when `SITE_URL` is https). */
export function securityHeaders(config: Pick<Config, 'siteUrl'>): SecurityHeaders {
  const common: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    ...(config.siteUrl.startsWith('https:') && { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' }),
  };
  const page = {
    ...common,
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  };
  const pageCsp = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
  return {
    api: { ...common, 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'" },
    html: { ...page, 'Content-Security-Policy': `${pageCsp}; script-src 'none'` },
    apiDocs: {
      ...page,
      'Content-Security-Policy': `${pageCsp}; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:`,
    },
    file: { ...common, 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'" },
  };
}
