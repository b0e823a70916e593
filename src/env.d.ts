/// <reference types="astro/client" />

type ApiContext = import('./http/context.ts').ApiContext;

declare namespace App {
  /** Handed to Astro by `src/server/app-server.ts` with every request. */
  interface Locals extends ApiContext {}
}
