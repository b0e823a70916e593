/**
 * The editors' mistakes where they look (`src/content-check/`): `npm run build` stops before Astro
 * reads a file, with every mistake listed at once; under `npm run dev` every page asked for by a
 * browser is, while content has a mistake, the same list (a page of its own, which reloads itself
 * once a file is saved), and the terminal says the list each time a file under `content/` changes.
 * Every change under `content/` reloads the open page, whatever the change (a mistake YAML cannot
 * read included), so that the list comes and goes by itself.
 */
import type { AstroIntegration } from 'astro';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkContent } from '../content-check/check.ts';
import { mistakesPage, mistakesText } from '../content-check/report.ts';

/** The list page's own policy: its style, and Vite's client (a script of the dev server and its socket), nothing else. */
const PAGE_CSP = "default-src 'none'; script-src 'self'; connect-src 'self' ws: wss:; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";

/** How long after a change in content/ a page waits, so that it is drawn from what the files say now (Astro reads them again within it). */
const SETTLE_MS = 1_500;

export function contentCheck(): AstroIntegration {
  let root = process.cwd();
  return {
    name: 'lead-intake:content-check',
    hooks: {
      'astro:config:setup': ({ command, config }) => {
        root = fileURLToPath(config.root);
        if (command !== 'build') return;
        const mistakes = checkContent(root);
        if (mistakes.length > 0) {
          const error = new Error(`\n\n${mistakesText(mistakes)}\n`);
          error.name = 'ContentMistakes';
          error.stack = `${error.name}: ${error.message}`;
          throw error;
        }
      },
      'astro:server:setup': ({ server, logger }) => {
        let said = '';
        const say = () => {
          const mistakes = checkContent(root);
          const text = mistakes.length > 0 ? `${mistakesText(mistakes)}\n\nThe browser shows the same list until they are fixed.` : '';
          if (text !== said && text) logger.error(text);
          else if (text !== said) logger.info('content/ has no mistake left: the pages show again.');
          said = text;
        };
        say();
        const content = join(root, 'content/');
        let changedAt = 0;
        server.watcher.on('all', (_event, path) => {
          if (!path.startsWith(content)) return;
          changedAt = Date.now();
          say();
          // Astro reloads the open page itself when it could read the change; a file YAML cannot
          // read (a missing colon, an unclosed quote or brace) stops it first, so the page is told here.
          server.ws.send({ type: 'full-reload' });
        });
        server.middlewares.use(async (req, res, next) => {
          if (!/^(GET|HEAD)$/.test(req.method ?? '') || !req.headers.accept?.includes('text/html') || req.url?.startsWith('/@')) return next();
          const mistakes = checkContent(root);
          if (mistakes.length === 0) {
            // Just after a file of content/ changed, Astro may not have read it again yet: the page
            // waits until it has had the moment it takes, rather than show the words from before.
            const wait = changedAt + SETTLE_MS - Date.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
            return next();
          }
          res.writeHead(500, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Security-Policy': PAGE_CSP });
          res.end(req.method === 'HEAD' ? undefined : mistakesPage(mistakes));
        });
      },
    },
  };
}
