/**
 * With SITE_URL unset, the forms are accepted from every loopback name (`localhost`, `127.0.0.1`,
 * `[::1]`) at the port the server really listens on: under `npm start`, and under `npm run dev`,
 * which moves to the next free port when the one it is given is taken. A set SITE_URL keeps ruling
 * (`src/config/site-origins.ts`).
 */
import { createServer, type Server } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_PATTERN } from '../../src/leads/reference.ts';
import { chromiumAvailable, fillQuoteForm, launchChromium, offlinePage } from '../support/browser.ts';
import { exportLeads, freePort, startDevServer, startServer, type RunningServer } from '../support/server.ts';
import { filledAtLeisure } from '../support/form-token.ts';

/** A form's answers as the browser posts them, enough to pass the origin check (or be refused by it). */
const post = (url: string, origin: string) =>
  fetch(`${url}/_actions/submitContact`, {
    method: 'POST',
    headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'name=Maria+Lopez',
  });

describe.skipIf(!chromiumAvailable())('npm start with SITE_URL unset, opened at 127.0.0.1, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    const port = await freePort();
    [server, browser] = await Promise.all([startServer({ env: { PORT: String(port), SITE_URL: '' } }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  for (const javaScript of [true, false])
    it(`takes the quote form sent from the page at 127.0.0.1, JavaScript ${javaScript ? 'on' : 'off'}, and refuses another port in words`, async () => {
      const loopback = `http://127.0.0.1:${server.port}`;
      const { context, page } = await offlinePage(browser, loopback, { javaScriptEnabled: javaScript });
      await page.goto(`${loopback}/quote`);
      const email = `maria.lopez.start.${javaScript}@example.com`;
      await fillQuoteForm(page, { name: 'Maria Lopez', phone: '(503) 555-0142', email });
      await filledAtLeisure(page, server.databaseUrl);
      await page.getByRole('button', { name: 'Send my request' }).click();
      await page.locator('[data-result]:not([hidden]), [data-summary]:not([hidden]), .reference').first().waitFor({ state: 'visible' });
      expect(await page.locator('[data-summary]:not([hidden])').count()).toBe(0);
      expect((await page.locator('[data-reference], .reference').first().innerText()).trim()).toMatch(REFERENCE_PATTERN);
      expect((await exportLeads(server.databaseUrl)).filter((l) => (l.fields as { email: string }).email === email)).toHaveLength(1);
      await context.close();
      const refused = await post(server.url, `http://127.0.0.1:${server.port + 1}`);
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain(`can only be sent from this site, at http://localhost:${server.port}. Nothing was sent.`);
      // The request's line is written once the answer is out.
      await expect.poll(() => server.logs.some((l) => l.includes(`"refusedOrigin":"http://127.0.0.1:${server.port + 1}"`))).toBe(true);
    });
});

describe.skipIf(!chromiumAvailable())('npm run dev on a taken port, in Chromium', () => {
  let taken: Server;
  let takenPort: number;
  let dev: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    takenPort = await freePort();
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(takenPort, '127.0.0.1', resolve));
    // SITE_URL unset (the test servers' default is http://localhost:4321): as an editor runs it.
    [dev, browser] = await Promise.all([startDevServer({ env: { PORT: String(takenPort), SITE_URL: '' } }), launchChromium()]);
    // Dev compiles each page on its first visit, which takes its time on a busy machine: do it here.
    await fetch(`${dev.url}/quote`).then((r) => r.text());
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.dispose();
    await new Promise((resolve) => taken?.close(resolve));
  });

  /** A person sends the quote form from the page opened at `origin`: received (its reference shown), stored once, no CSP error. */
  async function sendsAQuoteFrom(origin: string, tag: string) {
    const { context, page, cspErrors } = await offlinePage(browser, origin);
    await page.goto(`${origin}/quote`);
    const email = `maria.lopez.${tag}.${Date.now()}@example.com`;
    await fillQuoteForm(page, { name: 'Maria Lopez', phone: '(503) 555-0142', email });
    await filledAtLeisure(page, dev.databaseUrl);
    await page.getByRole('button', { name: 'Send my request' }).click();
    // The answer shows either the reference (data-result) or why it was refused (data-summary).
    // (The first form sent to dev compiles its action on the way: on a busy machine, seconds.)
    await page.locator('[data-result]:not([hidden]), [data-summary]:not([hidden])').first().waitFor({ state: 'visible' });
    expect(await page.locator('[data-summary]').isVisible(), await page.locator('[data-summary]').innerText()).toBe(false);
    expect((await page.locator('[data-reference]').innerText()).trim()).toMatch(REFERENCE_PATTERN);
    expect((await exportLeads(dev.databaseUrl)).filter((l) => (l.fields as { email: string }).email === email)).toHaveLength(1);
    expect(cspErrors).toEqual([]);
    await context.close();
  }

  it('moves to another port, and the quote form sent from it is received and stored', async () => {
    expect(dev.port).not.toBe(takenPort);
    await sendsAQuoteFrom(dev.url, 'port');
  });

  it('takes the form from the page opened at 127.0.0.1 too, and from every loopback name at its port', async () => {
    await sendsAQuoteFrom(`http://127.0.0.1:${dev.port}`, 'loopback');
    // The origin check passes for each name (what refuses these incomplete answers is the action itself).
    for (const name of ['localhost', '127.0.0.1', '[::1]']) expect((await post(dev.url, `http://${name}:${dev.port}`)).status, name).not.toBe(403);
  });

  it('still refuses every other origin: the port it was given, and another site', async () => {
    for (const origin of [`http://localhost:${takenPort}`, `http://127.0.0.1:${takenPort}`, 'http://localhost:4321', 'https://evil.example.com']) {
      const reply = await post(dev.url, origin);
      expect(reply.status, origin).toBe(403);
      expect(await reply.text()).toMatch(new RegExp(`can only be sent from this site, at http://localhost:${dev.port}\\. Nothing was sent\\.`));
    }
  });
});

describe('npm run dev with SITE_URL set', () => {
  let dev: RunningServer;
  beforeAll(async () => {
    dev = await startDevServer({ env: { SITE_URL: 'http://localhost:4321' } });
  });
  afterAll(async () => {
    await dev?.dispose();
  });

  it('accepts the forms from SITE_URL alone, not from the port dev listens on', async () => {
    expect((await post(dev.url, dev.url)).status).toBe(403);
    expect((await post(dev.url, `http://localhost:${dev.port}`)).status).toBe(403);
    // From SITE_URL the origin check passes: what refuses the incomplete answers is the action itself.
    expect((await post(dev.url, 'http://localhost:4321')).status).not.toBe(403);
  });
});
