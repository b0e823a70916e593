/**
 * `/api-docs`: the whole reference as plain HTML (`plain-reference.ts`), which is what paints
 * first, and Redoc's interactive reference built by Redocly at build time from the same description,
 * whose script (`/api-docs/redoc.js`: Redoc's bundle with the description inlined, so that it
 * renders with no request to another host) a small inline script loads after the page or on
 * demand (`redoc-loader.js`). Lighthouse on a phone profile scored the page 28 when Redoc's 2.6 MB
 * (its bundle, its server-rendered markup and 250 KB of styles) was the page itself; Redoc renders
 * on the client instead, so neither its markup nor its styles are sent.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVICE_NAME, serviceLinks } from '../service-facts.ts';
import { publishedDocument } from './published.ts';
import { redocly } from './openapi.ts';
import { plainReference } from './plain-reference.ts';

const TEMPLATE = resolve('src/discovery/redoc-template.hbs');
const LOADER = resolve('src/discovery/redoc-loader.js');

/** Where Redoc's script is served; the loader imports it from there. */
export const REDOC_SCRIPT_PATH = '/api-docs/redoc.js';

// Redoc's "API docs by Redocly" attribution loads its logo from Redocly's CDN; the page must make
// no request to another host, so the logo is replaced by an inline one with the same words.
const CDN_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const LOGO_SVG = [
  '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="16">',
  '<text x="0" y="12" font-family="sans-serif" font-size="12" fill="#555">Redocly</text></svg>',
].join('');
const INLINE_LOGO = `data:image/svg+xml,${encodeURIComponent(LOGO_SVG)}`;

// Redoc's search probes for a worker by compiling its source with `Function(…)`, which the page's
// policy (no 'unsafe-eval') refuses: the search then runs without a worker, but Chromium records the
// refusal as a Content-Security-Policy issue (Lighthouse's best practices count it). The probe is
// answered "no worker" without compiling anything. A Redoc whose probe reads otherwise fails the build.
const WORKER_PROBE = /try\{return [\w$]+\._factory\?\?=Function\([\w$]+\),!0\}catch\{return!1\}/g;

/** What the template marks: Redoc's head (its server-rendered styles), its markup and script, and the plain reference. */
const REDOC_HEAD = /<!-- redoc-head -->[\s\S]*<!-- \/redoc-head -->/;
const REDOC = /<!-- redoc -->([\s\S]*)<!-- \/redoc -->/;
const PLAIN_REFERENCE = '<!-- plain-reference -->';
const MODULE_SCRIPT = /<script type="module">([\s\S]*)<\/script>/;

export interface ApiDocs {
  /** The page. */
  html: string;
  /** Redoc's bundle, the description and the call that renders it into `#redoc`: an ES module. */
  script: string;
}

/** The page and Redoc's script of `doc`, the completed OpenAPI description. */
export function apiDocs(doc: Record<string, any>): ApiDocs {
  const siteUrl: string = doc.servers[0].url;
  const dir = mkdtempSync(join(tmpdir(), 'api-docs-'));
  try {
    const spec = join(dir, 'openapi.json');
    const out = join(dir, 'index.html');
    writeFileSync(spec, JSON.stringify(doc));
    const links = serviceLinks(siteUrl);
    redocly([
      'build-docs',
      spec,
      '--inlineBundle',
      '-o',
      out,
      '-t',
      TEMPLATE,
      '--title',
      `API reference · ${SERVICE_NAME}`,
      `--templateOptions.catalog=${links.apiCatalog}`,
      `--templateOptions.openapi=${links.openapi}`,
      '--openapi.hideDownloadButtons=false',
      '--openapi.disableSearch=false',
    ]);
    const built = readFileSync(out, 'utf8').replace(CDN_LOGO, INLINE_LOGO);
    const redoc = REDOC.exec(built)?.[1];
    const module = redoc && MODULE_SCRIPT.exec(redoc)?.[1];
    if (!REDOC_HEAD.test(built) || !module || !built.includes(PLAIN_REFERENCE)) {
      throw new Error(`${TEMPLATE} must mark Redoc's head and markup, and the plain reference, and Redoc must write one module script`);
    }
    if ((module.match(WORKER_PROBE) ?? []).length !== 1) throw new Error("Redoc's search worker probe is not where it was: review WORKER_PROBE");
    // The server's address, which Redoc shows and the plain reference leaves to the paths: a reader
    // on a phone gets the URL to send leads to without opening Redoc.
    const offer = [
      `<p class="redoc-offer">Every path below is on <code>${siteUrl}</code>: leads go to <code>POST ${links.leads}</code>.</p>`,
      '<p class="redoc-offer" id="redoc-offer" hidden>',
      '<button type="button">Open the interactive reference</button>',
      ' Redoc, with search and request and response samples: a larger download, run in this browser.',
      '</p>',
    ].join('\n');
    const html = built
      .replace(REDOC_HEAD, '')
      .replace(PLAIN_REFERENCE, () => `${offer}\n${plainReference(doc)}`)
      .replace(REDOC, () => `<div id="redoc" hidden></div>\n  <script>\n${readFileSync(LOADER, 'utf8').trim()}\n  </script>`);
    return { html, script: module.replace(WORKER_PROBE, 'return!1') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let built: Promise<ApiDocs> | undefined;

/** The published description's page and script, built once per build (both prerendered routes use them). */
export function publishedApiDocs(): Promise<ApiDocs> {
  return (built ??= publishedDocument().then(apiDocs));
}
