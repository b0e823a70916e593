/** Under `npm run dev`: records the port Astro's dev server really listens on (`src/config/dev-origin.ts`). */
import type { AstroIntegration } from 'astro';
import { recordDevPort } from '../config/dev-origin.ts';

export function devOrigin(): AstroIntegration {
  return { name: 'lead-intake:dev-origin', hooks: { 'astro:server:start': ({ address }) => recordDevPort(address.port) } };
}
