// @ts-check
import mdx from '@astrojs/mdx';
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import { getConfig } from './src/config/config.ts';
import { MAX_FORM_BODY_BYTES } from './src/service-facts.ts';
import { inlineCodeGuard } from './src/integrations/inline-code-guard.ts';
import { precompressIntegration } from './src/integrations/precompress.ts';
import { devOrigin } from './src/integrations/dev-origin.ts';
import { devDirectoryIndexes } from './src/integrations/dev-directory-indexes.ts';
import { contentCheck } from './src/integrations/content-check.ts';
import { serverBundle } from './src/integrations/server-bundle.ts';

const config = getConfig();

export default defineConfig({
  site: config.siteUrl,
  // Middleware mode: the project's own server (src/server/) receives every request, serves the
  // static files and hands the rest to Astro; see docs/decisions/0001 and 0006.
  // bodySizeLimit is only a backstop (the handler stops at 20,000 bytes itself): when it fires it
  // destroys the socket, so it sits well above what the request stream prefetches.
  adapter: node({ mode: 'middleware', bodySizeLimit: 1024 * 1024 }),
  // serverBundle: our node:http server joins the server build, on the routes' own module graph.
  // inlineCodeGuard: no page but /api-docs may carry inline scripts or styles (CSP).
  // precompressIntegration: Brotli and gzip of the built files, made once (dist/precompressed/).
  // contentCheck: every mistake in content/ at once, stopping a build, and in the browser under `npm run dev`.
  // devOrigin: under `npm run dev`, the port dev really took, which the forms follow when SITE_URL is unset.
  // devDirectoryIndexes: under `npm run dev`, /api-docs answers as the built server answers it.
  integrations: [
    contentCheck(),
    mdx(),
    serverBundle({
      'server.mjs': new URL('./src/server/start.ts', import.meta.url),
      'backup-worker.mjs': new URL('./src/server/backup-worker.ts', import.meta.url),
    }),
    inlineCodeGuard(),
    precompressIntegration(),
    devOrigin(),
    devDirectoryIndexes(),
  ],
  trailingSlash: 'ignore',
  // Astro's image endpoint (/_image) is served on every on-demand site: this one has no image to
  // transform, so the route answers as an unknown path does.
  image: { endpoint: { route: '/_image', entrypoint: './src/integrations/no-image-endpoint.ts' } },
  // Plain <pre><code> for fenced code in MDX: highlighters write inline style attributes, which the
  // pages' Content-Security-Policy (style-src 'self') would block.
  markdown: { syntaxHighlight: false },
  // Stylesheets as files, never inline: the pages' Content-Security-Policy allows no inline style or script.
  build: { format: 'directory', inlineStylesheets: 'never' },
  security: {
    // The lead paths accept only application/json, which a cross-site HTML form cannot send and a
    // cross-site script cannot send without a CORS preflight that we never grant; Astro's check
    // would answer form-typed POSTs with a text/plain 403 before our 415 problem. The web forms
    // have a check of their own (src/web-forms/origin.ts), which knows the address behind a proxy.
    checkOrigin: false,
    // A web form's body, URL-encoded: the API's fields at their longest, with room for encoding.
    actionBodySizeLimit: MAX_FORM_BODY_BYTES,
  },
  vite: {
    // Under `npm run dev`, the forms' script needs Astro's actions client. Found only on a form's
    // first visit, Vite would bundle it then and reload the page under the editor's (or a test's) eyes.
    optimizeDeps: { include: ['astro/actions/runtime/entrypoints/client.js'] },
    build: {
      // Scripts as files, never inline (the pages' Content-Security-Policy allows this site's files only).
      assetsInlineLimit: 0,
      rolldownOptions: {
        // Astro's own MDX modules carry a directive the bundler warns about, a dozen lines per build
        // that say nothing about the site (withastro/astro#18087): silence that warning alone.
        onwarn(warning, warn) {
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('astro:head-inject')) return;
          warn(warning);
        },
      },
    },
  },
  devToolbar: { enabled: false },
  server: { host: config.host, port: config.port },
});
