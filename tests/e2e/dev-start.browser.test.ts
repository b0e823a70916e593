/**
 * What `npm run dev` shows is what `npm start` shows: each customer's page, in Chromium on a phone
 * and on a laptop, has the same visible text, and every visible element the same place, size,
 * colours and font under both, so the stylesheet is applied alike (Vite's inline styles in dev,
 * the built file under npm start). Neither breaks its Content-Security-Policy nor asks another host.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { startDevServer, startServer, type RunningServer } from '../support/server.ts';

const PAGES = ['/', '/quote', '/contact', '/privacy', '/terms', '/developers', '/missing-page'];
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** What a person sees of the page: its text, and each visible element's place, size, colours and font. */
function seen(page: Page) {
  return page.evaluate(() => {
    const visible = [...document.body.querySelectorAll('*')].filter((e) => !/^(SCRIPT|STYLE|TEMPLATE)$/.test(e.tagName) && e.checkVisibility());
    return {
      text: document.body.innerText,
      elements: visible.map((e) => {
        const box = e.getBoundingClientRect();
        const style = getComputedStyle(e);
        const where = [box.x, box.y, box.width, box.height].map(Math.round).join(' ');
        return `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''} at ${where}: ${style.color} on ${style.backgroundColor}, ${style.fontSize} ${style.fontWeight} ${style.fontFamily}`;
      }),
    };
  });
}

describe.skipIf(!chromiumAvailable())('npm run dev and npm start show each page alike, in Chromium', () => {
  let dev: RunningServer;
  let start: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [dev, start, browser] = await Promise.all([startDevServer(), startServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([dev?.dispose(), start?.dispose()]);
  });

  for (const path of PAGES) {
    it(`${path}: the same text, and every element in the same place with the same colours and font`, async () => {
      const views = await Promise.all(
        [start, dev].map(async (server) => {
          const { context, page, foreign, cspErrors } = await offlinePage(browser, server.url, { viewport: SIZES[0] });
          await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
          // Under dev, Vite injects the stylesheet with a script: on a busy machine that can come after the network went quiet.
          await page.waitForFunction(() => getComputedStyle(document.body).fontFamily.includes('system-ui'));
          const bySize = [];
          for (const size of SIZES) {
            await page.setViewportSize(size);
            bySize.push(await seen(page));
          }
          expect(foreign, `${path}: requests to other hosts`).toEqual([]);
          expect(cspErrors, `${path}: Content-Security-Policy violations`).toEqual([]);
          await context.close();
          return bySize;
        }),
      );
      const [built, edited] = views as [Awaited<ReturnType<typeof seen>>[], Awaited<ReturnType<typeof seen>>[]];
      for (const [i, size] of SIZES.entries()) {
        expect(built[i]!.elements.length, `${path} at ${size.width} px: elements`).toBeGreaterThan(10);
        expect(edited[i]!.text, `${path} at ${size.width} px: the text`).toBe(built[i]!.text);
        expect(edited[i]!.elements, `${path} at ${size.width} px: the elements`).toEqual(built[i]!.elements);
      }
      // The stylesheet is applied: site.css sets the body's font.
      expect(built[0]!.elements[0]).toMatch(/system-ui/);
    });
  }
});
