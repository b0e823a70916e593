/** The pages in headless Chromium: Redoc renders offline, axe-core finds nothing serious, phones fit. */
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, offlinePage as openOfflinePage } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const PAGES = ['/', '/developers', '/developers/errors', '/terms', '/privacy', '/404-page-that-does-not-exist'];

describe.skipIf(!chromiumAvailable())('pages in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  /** A page whose every request to another host is refused and recorded. */
  const offlinePage = (width = 1280) => openOfflinePage(browser, server.url, { viewport: { width, height: 800 } });

  it('/api-docs renders every operation with no request to any other host', async () => {
    const { context, page, foreign, cspErrors } = await offlinePage();
    await page.goto(`${server.url}/api-docs`, { waitUntil: 'networkidle' });
    // Redoc lists operations under their tags in the sidebar, one group open at a time.
    const groups: Record<string, string[]> = {
      Discovery: ['Discover the API and check its status', 'API catalog (RFC 9727)', 'This OpenAPI description, as JSON'],
      Leads: ['Submit a quote request or a contact message', 'Submit a lead (deprecated alias of /api/v1/leads)'],
    };
    for (const [tag, operations] of Object.entries(groups)) {
      // A click that lands before Redoc has hydrated does nothing: try again until the group opens.
      for (let attempt = 0; ; attempt++) {
        // Clicked only while closed: a second click on a group still opening would close it again.
        if (!(await page.getByText(operations[0]!).first().isVisible())) await page.getByText(tag, { exact: true }).first().click();
        const opened = await page
          .getByText(operations[0]!)
          .first()
          .waitFor({ timeout: 10_000 })
          .then(
            () => true,
            () => false,
          );
        if (opened) break;
        if (attempt === 12) throw new Error(`the ${tag} group of /api-docs never opened`);
      }
      for (const op of operations) await page.getByText(op).first().waitFor();
    }
    await page.getByText('Submit a quote request or a contact message').first().click();
    await page.getByText('Idempotency-Key').first().waitFor();
    expect(await page.locator('a[href="/developers"]').count()).toBeGreaterThan(0);
    expect(foreign).toEqual([]);
    expect(cspErrors).toEqual([]);
    await context.close();
  });

  it('customers\' pages keep the developers\' documents one discreet link away: "For developers" in the footer, and no other door', async () => {
    const { context, page } = await offlinePage(390);
    for (const path of ['/', '/quote', '/contact', '/privacy', '/terms']) {
      await page.goto(`${server.url}${path}`);
      const footerLinks = await page.locator('footer a').evaluateAll((links) => links.map((a) => [a.textContent?.trim(), a.getAttribute('href')]));
      const forDevelopers = footerLinks.filter(([, href]) => /developers|api|openapi|llms/.test(href ?? ''));
      expect(forDevelopers, path).toEqual([['For developers', '/developers']]);
      // One door: on the pages customers read (the terms of use speak of the API itself), the footer's is the only one.
      if (path === '/terms') continue;
      const anywhere = await page.locator('a').evaluateAll((links) => links.map((a) => [a.textContent?.trim(), a.getAttribute('href')]));
      expect(
        anywhere.filter(([, href]) => /developers|api|openapi|llms/.test(href ?? '')),
        path,
      ).toEqual([['For developers', '/developers']]);
    }
    await context.close();
  });

  it('/privacy opens with a summary for customers that fits one phone screen: what is kept, for how long, who sees it, how to delete it', async () => {
    const { context, page } = await openOfflinePage(browser, server.url, { viewport: { width: 390, height: 844 } });
    await page.goto(`${server.url}/privacy`);
    const summary = page.locator('h2#in-short + ul');
    const text = await summary.innerText();
    for (const topic of ['What we keep', 'For how long', 'Who sees it', 'To see it or have it deleted', '730 days']) expect(text).toContain(topic);
    // The office's phone, as every page writes it (never broken over two lines).
    expect(text).toMatch(/\(503\)\s555.0100/);
    const { height } = (await summary.boundingBox())!;
    expect(height, 'the summary, read on a phone').toBeLessThanOrEqual(844);
    // It comes first: nothing but the page's opening words before it.
    expect(await page.locator('main h2').first().innerText()).toBe('In short');
    await context.close();
  });

  for (const path of [...PAGES, '/api-docs']) {
    it(`${path}: axe-core finds no serious or critical violation`, async () => {
      const { context, page } = await offlinePage();
      await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
      if (path === '/api-docs') await page.getByText('Leads', { exact: true }).first().waitFor();
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
      await context.close();
    });
  }

  // Issue 23: on a phone, the customers' pages put the call and the menu in reach without scrolling sideways.
  for (const path of ['/', '/quote', '/contact']) {
    it(`${path}: at 360 px the header offers the office's phone as a link and the menu on one row`, async () => {
      const { context, page } = await offlinePage(360);
      await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
      const call = page.locator('header a.call[href="tel:+15035550100"]');
      expect(await call.count()).toBe(1);
      expect(await call.isVisible()).toBe(true);
      // As people read it, with a no-break space and hyphen, so that it never breaks over two lines.
      expect((await call.textContent())?.trim()).toBe('(503)\u00a0555\u20110100');
      const layout = await page.evaluate(() => {
        const box = (el: Element) => el.getBoundingClientRect();
        const nav = document.querySelector('header nav[aria-label="Main"]')!;
        const call = document.querySelector('header a.call')!;
        const links = [...nav.querySelectorAll('a')];
        return {
          labels: links.map((a) => a.textContent!.trim()),
          tops: links.map((a) => box(a).top),
          linkHeight: Math.max(...links.map((a) => box(a).height)),
          navHeight: box(nav).height,
          rightmost: Math.max(box(call).right, ...links.map((a) => box(a).right)),
          callHeight: box(call).height,
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        };
      });
      expect(layout.labels).toEqual(['Home', 'Get a quote', 'Contact']);
      // One row: every link at the same height, and the menu no taller than one of them.
      expect(new Set(layout.tops).size).toBe(1);
      expect(layout.navHeight).toBeLessThan(layout.linkHeight * 1.5);
      // The number on one line, and nothing of the header past the screen's edge.
      expect(layout.callHeight).toBeLessThan(layout.linkHeight * 1.5);
      expect(layout.rightmost).toBeLessThanOrEqual(360);
      expect(layout.clientWidth).toBe(360);
      expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
      await context.close();
    });
  }

  for (const path of PAGES) {
    it(`${path}: fits a 360 px screen, runs no script and blocks nothing by CSP`, async () => {
      const { context, page, foreign, cspErrors } = await offlinePage(360);
      await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
      const { scrollWidth, scripts } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, scripts: document.scripts.length }));
      expect(scrollWidth).toBeLessThanOrEqual(360);
      expect(scripts).toBe(0);
      expect(foreign).toEqual([]);
      expect(cspErrors).toEqual([]);
      expect(await page.locator('head link[rel="api-catalog"]').count()).toBe(1);
      await context.close();
    });
  }
});
