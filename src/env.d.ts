/// <reference types="astro/client" />

type ApiContext = import('./http/context.ts').ApiContext;

declare namespace App {
  /**
   * `request` comes from our server (`src/server/app-server.ts`) or, elsewhere, from the middleware;
   * `services` from the middleware (`src/middleware.ts`).
   */
  interface Locals extends ApiContext {}
}
