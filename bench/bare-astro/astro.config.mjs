// The benchmark's bare Astro: the same Astro and adapter as the service, in the same mode, with one
// endpoint that answers a constant. What it costs is Astro's share of a request, and nothing of ours.
import node from '@astrojs/node';
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware', bodySizeLimit: 1024 * 1024 }),
});
