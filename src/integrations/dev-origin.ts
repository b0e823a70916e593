/** Under `npm run dev`: records the port Astro's dev server really listens on (`src/config/site-origins.ts`). */
import type { AstroIntegration } from 'astro';
import { recordListeningPort } from '../config/site-origins.ts';

export function devOrigin(): AstroIntegration {
  return { name: 'lead-intake:dev-origin', hooks: { 'astro:server:start': ({ address }) => recordListeningPort(address.port) } };
}
