/**
 * `/api-docs`: Redoc's page built by Redocly at build time from the bundled description, with
 * Redoc's scripts inlined (`--inlineBundle`) so that it renders with no request to another host,
 * and the whole reference in plain HTML inside `<noscript>` for clients without JavaScript.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVICE_NAME, serviceLinks } from '../facts.ts';
import { redocly } from './openapi.ts';
import { plainReference } from './plain-reference.ts';

const TEMPLATE = resolve('src/discovery/redoc-template.hbs');

// Redoc's "API docs by Redocly" attribution loads its logo from Redocly's CDN; the page must make
// no request to another host, so the logo is replaced by an inline one with the same words.
const CDN_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const INLINE_LOGO = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12" fill="#555">Redocly</text></svg>')}`;

/** Where the template puts the plain reference. */
const PLAIN_REFERENCE = '<!-- plain-reference -->';

/** The HTML of the API reference page of `doc`, the completed OpenAPI description. */
export function apiDocsHtml(doc: Record<string, any>): string {
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
    const html = readFileSync(out, 'utf8').replace(CDN_LOGO, INLINE_LOGO);
    if (!html.includes(PLAIN_REFERENCE)) throw new Error(`${TEMPLATE} must hold ${PLAIN_REFERENCE}`);
    return html.replace(PLAIN_REFERENCE, () => `<noscript>\n${plainReference(doc)}\n</noscript>`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
