/**
 * `npm run dev` renders what the built server renders: the pages carry the built server's security
 * headers, their policy with only the additions Vite needs (`DEV_CSP_ADDITIONS`), and in Chromium
 * the forms are styled by `src/styles/site.css`, the spam trap is hidden and no policy is violated.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_CSP_ADDITIONS, devCsp, pageCsp, securityHeaders } from '../../src/http/security-headers.ts';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { startDevServer, type RunningServer } from '../support/server.ts';

/** The SITE_URL the test servers run with (`tests/support/server.ts`). */
const SITE_URL = 'http://localhost:4321';

describe.skipIf(!chromiumAvailable())('npm run dev in Chromium: what the built server renders', () => {
  let dev: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [dev, browser] = await Promise.all([startDevServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.dispose();
  });

  for (const path of ['/quote', '/contact']) {
    it(`${path}: the form styled by site.css, the spam trap invisible, no Content-Security-Policy violation`, async () => {
      const { context, page, foreign, cspErrors } = await offlinePage(browser, dev.url);
      await page.goto(`${dev.url}${path}`, { waitUntil: 'networkidle' });
      // Vite injects the stylesheet with a script: on a busy machine that can come after the network went quiet.
      await page.waitForFunction(() => getComputedStyle(document.body).fontFamily.includes('system-ui'));
      const looks = await page.evaluate(() => {
        const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
        return { font: style('body').fontFamily, field: style('form .field').marginBottom, trap: style('.trap').display, button: style('form button').color };
      });
      // site.css: body's system-ui font, .field's bottom margin, .trap { display: none }.
      expect(looks.font, path).toMatch(/^system-ui\b/);
      expect(looks.field, path).not.toBe('0px');
      expect(looks.trap, path).toBe('none');
      expect(await page.locator('input[name="website"]').isVisible(), `${path}: the spam trap`).toBe(false);
      expect(await page.getByRole('button', { name: /Send/ }).isVisible(), path).toBe(true);
      expect(cspErrors, path).toEqual([]);
      expect(foreign, path).toEqual([]);
      await context.close();
    });
  }

  it("sends each page the built server's security headers, its policy differing by the listed dev additions alone", async () => {
    const security = securityHeaders({ siteUrl: SITE_URL });
    for (const path of ['/', '/privacy', '/developers', '/quote', '/contact', '/missing-page']) {
      const reply = await fetch(`${dev.url}${path}`);
      const html = await reply.text();
      const onDemand = path === '/quote' || path === '/contact';
      const { 'Content-Security-Policy': builtCsp, ...expected } = onDemand
        ? security.onDemandPage
        : { ...security.html, 'Content-Security-Policy': pageCsp(html, path) };
      for (const [name, value] of Object.entries(expected)) expect(reply.headers.get(name), `${path}: ${name}`).toBe(value);
      const csp = reply.headers.get('content-security-policy');
      expect(csp, path).toBe(devCsp(builtCsp!));
      const added = csp!.split('; ').flatMap((d) =>
        d
          .split(' ')
          .slice(1)
          .map((source) => `${d.split(' ')[0]} ${source}`),
      );
      const built = new Set(
        builtCsp!.split('; ').flatMap((d) =>
          d
            .split(' ')
            .slice(1)
            .map((source) => `${d.split(' ')[0]} ${source}`),
        ),
      );
      const listed = Object.entries(DEV_CSP_ADDITIONS).flatMap(([name, sources]) => sources.map((source) => `${name} ${source}`));
      expect(added.filter((s) => !built.has(s)).sort(), path).toEqual(listed.sort());
    }
  });
});
