/**
 * Under `npm run dev`: a folder's `index.html` endpoint (`src/pages/api-docs/index.html.ts`)
 * answers the folder's own address, `/api-docs` and `/api-docs/`, as the built server answers with
 * its file (`urlPaths` in `src/server/static-files.ts`); Astro's dev server knows it only as
 * `/api-docs/index.html`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

export function devDirectoryIndexes(): AstroIntegration {
  let pages = '';
  return {
    name: 'lead-intake:dev-directory-indexes',
    hooks: {
      'astro:config:setup': ({ config }) => {
        pages = join(fileURLToPath(config.srcDir), 'pages');
      },
      'astro:server:setup': ({ server }) => {
        server.middlewares.use((req, _res, next) => {
          const [path = '', query] = (req.url ?? '').split('?', 2);
          const folder = path.replace(/\/$/, '');
          if (folder !== '' && !folder.includes('.') && existsSync(join(pages, folder, 'index.html.ts')))
            req.url = `${folder}/index.html${query === undefined ? '' : `?${query}`}`;
          next();
        });
      },
    },
  };
}
