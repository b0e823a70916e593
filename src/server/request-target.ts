/**
 * The request target, normalised once, so that our server and Astro route by the same path. Astro
 * routes by `new URL(origin + target).pathname` (backslashes become slashes; `.`, `..`, `%2e` and
 * `%2e%2e` segments are resolved), decoded with `decodeURI` until it stops changing. We do the same,
 * also fold runs of slashes, and hand Astro the canonical target: `/api\v1\leads`, `//api/v1/leads`,
 * `/x/../api/v1/leads` and `/%2e%2e/api/v1/leads` are all `/api/v1/leads`, for both, with every
 * header of that path's answers.
 */

/** Where a request goes. */
export interface RequestTarget {
  /** The decoded path every routing decision uses (static files, API paths). */
  path: string;
  /** The canonical request target (still percent-encoded, with its query) handed to Astro. */
  target: string;
}

const MAX_DECODE_ROUNDS = 10;

/** Decodes a path as Astro's router does; `undefined` for an invalid or endlessly nested encoding. */
function decodePath(pathname: string): string | undefined {
  let current = pathname;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round++) {
    let decoded: string;
    try {
      decoded = decodeURI(current);
    } catch {
      return undefined;
    }
    if (decoded === current) return decoded;
    current = decoded;
  }
  return undefined;
}

/**
 * The normalised target of a request line's target (origin form `/path?q`, or absolute form
 * `http://host/path`); `undefined` when it is neither, or its path cannot be decoded.
 */
export function normaliseTarget(raw: string): RequestTarget | undefined {
  let url: URL;
  try {
    url = new URL(raw.startsWith('/') ? `http://target.invalid${raw}` : raw);
  } catch {
    return undefined;
  }
  if (!raw.startsWith('/') && url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const pathname = url.pathname.replace(/\/{2,}/g, '/');
  const path = decodePath(pathname);
  return path === undefined ? undefined : { path, target: `${pathname}${url.search}` };
}
