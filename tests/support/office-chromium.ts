/**
 * What a browser test file of the office starts once for its tests and stops after them: the built
 * server (its own port, trusting loopback, so that each visitor is a client of its own), the owner's
 * and a staff helper's accounts, and headless Chromium; and a visitor at one size, with or without
 * JavaScript, whose page records every address it asks for.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium, offlinePage } from './browser.ts';
import { newClient } from './fixtures.ts';
import { addUser, STAFF } from './office.ts';
import { freePort, startServer, type RunningServer } from './server.ts';

/** The staff account beside the owner's (`STAFF`). */
export const HELPER = { email: 'helper@example.com', password: 'sponge and broom 2026' } as const;

/** Starts the office for the tests of the `describe` it is called in; its parts are read once started. */
export function officeInChromium() {
  const started: { server?: RunningServer; browser?: Browser } = {};
  beforeAll(async () => {
    const port = await freePort();
    started.server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    await addUser(started.server.databaseUrl, STAFF.email, STAFF.password);
    await addUser(started.server.databaseUrl, HELPER.email, HELPER.password, ['--role', 'staff']);
    started.browser = await launchChromium();
  });
  afterAll(async () => {
    await started.browser?.close();
    await started.server?.dispose();
  });
  return {
    get server(): RunningServer {
      return started.server!;
    },
    get browser(): Browser {
      return started.browser!;
    },
    /** A visitor of its own at `view`, its page recording every address it asks for (`asked`). */
    async visitor(view: { width: number; height: number; javaScript: boolean }) {
      const opened = await offlinePage(started.browser!, started.server!.url, {
        viewport: { width: view.width, height: view.height },
        javaScriptEnabled: view.javaScript,
        extraHTTPHeaders: newClient(),
      });
      const asked: string[] = [];
      opened.page.on('request', (r) => asked.push(r.url()));
      return { ...opened, asked };
    },
  };
}
