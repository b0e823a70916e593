/// <reference types="astro/client" />

declare namespace App {
  /** Handed to Astro by `src/server/app-server.ts` with every request. */
  interface Locals extends import('./http/context.ts').ApiContext {}
}
