/**
 * Refuses a build whose pages carry inline scripts, `<style>` elements or `on…=` handler attributes
 * anywhere but the pages allowed them (`INLINE_CODE_PAGES`: Redoc's `/api-docs`). A page's text
 * (an editor's MDX) then cannot bring a script with it: the Content-Security-Policy never hashes
 * what it finds, and the build names the page and what was found instead of shipping it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { INLINE_CODE_PAGES, inlineCode } from '../http/security-headers.ts';

/** The URL path of a built HTML file: `developers/index.html` is `/developers`. */
const pagePath = (file: string) => `/${file.split(sep).join('/')}`.replace(/(\/index)?\.html$/, '') || '/';

/** The pages of a built site that carry inline code they may not, with what each carries. */
export function findInlineCode(clientDir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const path = pagePath(relative(clientDir, join(entry.parentPath, entry.name)));
    if (INLINE_CODE_PAGES.has(path)) continue;
    const code = inlineCode(readFileSync(join(entry.parentPath, entry.name), 'utf8'));
    if (code.length > 0) found.push(`${path}: ${[...new Set(code)].join(', ')}`);
  }
  return found;
}

export function inlineCodeGuard(): AstroIntegration {
  return {
    name: 'lead-intake:inline-code-guard',
    hooks: {
      'astro:build:done': ({ dir }) => {
        const found = findInlineCode(fileURLToPath(dir));
        if (found.length > 0) {
          throw new Error(
            `Pages may not carry inline scripts or styles (only ${[...INLINE_CODE_PAGES].join(', ')} may): ${found.join('; ')}. ` +
              "Remove them from the page's text; a script belongs in a component under src/, which the build bundles as a file.",
          );
        }
      },
    },
  };
}
