/**
 * `/api-docs`: Redoc's page built by Redocly at build time from the bundled description, with
 * Redoc's scripts inlined (`--inlineBundle`) so that it renders with no request to another host.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVICE_NAME, serviceLinks } from '../service-info.ts';
import { openApiDocument, redocly } from './openapi.ts';

const TEMPLATE = resolve('src/discovery/redoc-template.hbs');

// Redoc's "API docs by Redocly" attribution loads its logo from Redocly's CDN; the page must make
// no request to another host, so the logo is replaced by an inline one with the same words.
const CDN_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const INLINE_LOGO = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12" fill="#555">Redocly</text></svg>')}`;

/** The HTML of the API reference page for a deployment at `siteUrl`. */
export function apiDocsHtml(siteUrl: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'api-docs-'));
  try {
    const spec = join(dir, 'openapi.json');
    const out = join(dir, 'index.html');
    writeFileSync(spec, JSON.stringify(openApiDocument(siteUrl)));
    const links = serviceLinks(siteUrl);
    redocly([
      'build-docs', spec, '--inlineBundle', '-o', out, '-t', TEMPLATE,
      '--title', `API reference · ${SERVICE_NAME}`,
      `--templateOptions.catalog=${links.apiCatalog}`, `--templateOptions.openapi=${links.openapi}`,
      '--openapi.hideDownloadButtons=false', '--openapi.disableSearch=false',
    ]);
    return readFileSync(out, 'utf8').replace(CDN_LOGO, INLINE_LOGO);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
