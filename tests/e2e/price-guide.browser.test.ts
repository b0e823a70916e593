/**
 * The price guide the editors keep (`prices` in `content/forms/quote.mdx`): on /quote, with
 * JavaScript, one sentence for the cleaning and the bedrooms chosen so far, updated at each choice;
 * without it, a short table of each cleaning's range; always an estimate the office confirms, on a
 * phone and on a laptop, accessible. `GET /api/v1` publishes the same ranges. A copy of the project
 * with no prices in its content shows no guide and publishes none.
 */
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { copyProject, type ProjectCopy } from '../support/project-copy.ts';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';

const SIZES = { phone: { width: 390, height: 844 }, laptop: { width: 1280, height: 800 } };
/** Words no page may carry while the business has not filled in its claims (as `trust.browser.test.ts`). */
const CLAIMS = /licen[cs]|insur|guarant|review/i;
const NOTE = 'These are starting prices, an estimate: the office confirms the price once it knows your home.';

/** Taps one of a group's large choices (bedrooms, bathrooms). */
const choose = (page: Page, group: string, choice: string) =>
  page.getByRole('group', { name: group, exact: true }).getByRole('radio', { name: choice, exact: true }).check();

/** `content/forms/quote.mdx` without its prices: the comment above them and every line of them. */
function withoutPrices(): string {
  const shipped = readFileSync(join(ROOT, 'content/forms/quote.mdx'), 'utf8');
  const bare = shipped.replace(/^# EXAMPLE prices[^]*?^prices:\n(?: {2}.*\n)+/m, '');
  expect(bare).not.toMatch(/prices:|\$|[0-9]+ to [0-9]+/);
  return bare;
}

describe.skipIf(!chromiumAvailable())('the price guide, in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe('with the example prices as shipped', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer();
    });
    afterAll(async () => {
      await server?.dispose();
    });

    for (const [size, viewport] of Object.entries(SIZES)) {
      it(`on a ${size} with JavaScript: the range for what is chosen so far, said again at each choice`, async () => {
        const { context, page, cspErrors } = await offlinePage(browser, server.url, { viewport });
        await page.goto(`${server.url}/quote`);
        const guide = page.locator('[data-price-guide]');
        const line = guide.locator('[data-price-line]');
        await guide.scrollIntoViewIfNeeded();
        expect(await guide.getByRole('heading', { name: 'What it may cost' }).isVisible()).toBe(true);
        expect(await guide.locator('[data-price-table]').isVisible(), 'the sentence takes the place of the table').toBe(false);
        expect(await line.getAttribute('aria-live')).toBe('polite');
        expect(await line.innerText()).toBe('Choose the kind of cleaning, and the number of bedrooms, to see a starting price.');
        expect(await guide.innerText()).toContain(NOTE);

        await page.getByLabel('Kind of cleaning', { exact: true }).selectOption('Deep clean');
        expect(await line.innerText()).toBe('Deep clean: from $160 to $560, by the size of the home. Choose the bedrooms to see yours.');
        await choose(page, 'Bedrooms', '2');
        expect(await line.innerText()).toBe('Deep clean for 2 bedrooms: from $230 to $310.');
        await choose(page, 'Bedrooms', 'Studio');
        expect(await line.innerText()).toBe('Deep clean for a studio: from $160 to $220.');
        // The bathrooms leave the range as it is: the prices are by bedrooms.
        await choose(page, 'Bathrooms', '2½');
        expect(await line.innerText()).toBe('Deep clean for a studio: from $160 to $220.');
        await choose(page, 'Bedrooms', '5+');
        await page.getByLabel('How many bedrooms?').fill('7');
        expect(await line.innerText()).toBe('Deep clean for 5 bedrooms or more: from $400 to $560.');
        await page.getByLabel('Kind of cleaning', { exact: true }).selectOption('Standard clean');
        expect(await line.innerText()).toBe('Standard clean for 5 bedrooms or more: from $230 to $320.');
        await choose(page, 'Bedrooms', 'Not sure');
        expect(await line.innerText()).toBe('Standard clean: from $90 to $320, by the size of the home.');
        await page.getByLabel('Kind of cleaning', { exact: true }).selectOption('');
        expect(await line.innerText()).toMatch(/^Choose the kind of cleaning/);

        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        expect(await page.locator('body').innerText()).not.toMatch(CLAIMS);
        expect(cspErrors).toEqual([]);
        await context.close();
      });

      it(`on a ${size} without JavaScript: a short table of each cleaning's range`, async () => {
        const { context, page } = await offlinePage(browser, server.url, { viewport, javaScriptEnabled: false });
        await page.goto(`${server.url}/quote`);
        const guide = page.locator('[data-price-guide]');
        const table = guide.locator('[data-price-table]');
        await table.scrollIntoViewIfNeeded();
        expect(await table.isVisible()).toBe(true);
        expect(await guide.locator('[data-price-line]').isVisible()).toBe(false);
        const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
        expect(rows).toEqual([
          'Standard clean from $90 to $320',
          'Deep clean from $160 to $560',
          'Move-in / move-out clean from $180 to $620',
          'Regular clean from $80 to $280',
          'Post-renovation clean from $220 to $760',
        ]);
        expect(await guide.innerText()).toContain(NOTE);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        expect(await page.locator('body').innerText()).not.toMatch(CLAIMS);
        await context.close();
      });
    }

    for (const javaScript of [true, false])
      it(`/quote passes axe with the guide shown${javaScript ? ', a cleaning and the bedrooms chosen' : ', as without JavaScript (the table)'}`, async () => {
        // axe runs as a script of its own: the page's script is refused instead, so the page is as without JavaScript.
        const { context, page } = await offlinePage(browser, server.url, { viewport: SIZES.phone });
        if (!javaScript) await page.route(/\.js$/, (route) => route.abort());
        await page.goto(`${server.url}/quote`);
        if (javaScript) {
          await page.getByLabel('Kind of cleaning', { exact: true }).selectOption('Move-in / move-out clean');
          await choose(page, 'Bedrooms', '3');
          expect(await page.locator('[data-price-line]').innerText()).toBe('Move-in / move-out clean for 3 bedrooms: from $320 to $430.');
        } else expect(await page.locator('[data-price-table]').isVisible()).toBe(true);
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
        await context.close();
      });

    it('the home page states the lowest starting price of the guide, once', async () => {
      const status = await (await fetch(`${server.url}/api/v1`)).json();
      const lowest = Math.min(...(status.priceGuide.services as Array<{ from: number }>).map((s) => s.from));
      const home = await (await fetch(`${server.url}/`)).text();
      expect(home.match(/data-starting-price/g)).toHaveLength(1);
      expect(home).toContain(`Prices start at $${lowest.toLocaleString('en-US')};`);
    });

    it('GET /api/v1 publishes the same ranges with each service, and the documents for agents name them', async () => {
      const status = await (await fetch(`${server.url}/api/v1`)).json();
      expect(status.priceGuide.currency).toBe('USD');
      expect(status.priceGuide.note).toMatch(/estimate/);
      expect(status.priceGuide.services.map((s: { service: string }) => s.service)).toEqual(status.services);
      const deep = status.priceGuide.services.find((s: { service: string }) => s.service === 'Deep clean');
      expect(deep).toMatchObject({ from: 160, to: 560 });
      expect(deep.bySize).toEqual([
        { bedrooms: 'studio', from: 160, to: 220 },
        { bedrooms: '1', from: 190, to: 260 },
        { bedrooms: '2', from: 230, to: 310 },
        { bedrooms: '3', from: 280, to: 380 },
        { bedrooms: '4', from: 330, to: 450 },
        { bedrooms: '5+', from: 400, to: 560 },
      ]);
      const llms = await (await fetch(`${server.url}/llms.txt`)).text();
      expect(llms).toContain('"Deep clean": from $160 to $560, by the size of the home (a studio from $160 to $220;');
      expect(llms).toContain('(`priceGuide`)');
      const developers = await (await fetch(`${server.url}/developers`)).text();
      expect(developers).toContain('<code>Deep clean</code>: from $160 to $560, by the size of the home');
      expect(developers).toContain('data-price-guide-agents');
    });
  });

  describe('with no prices in the content', () => {
    let copy: ProjectCopy;
    let server: RunningServer;
    beforeAll(async () => {
      copy = copyProject('price-guide-');
      copy.write('content/forms/quote.mdx', withoutPrices());
      const build = await copy.build();
      expect(build.output).toBe('');
      server = await startServer({ project: copy.dir });
    });
    afterAll(async () => {
      await server?.dispose();
      copy?.dispose();
    });

    for (const javaScript of [true, false])
      it(`/quote shows no guide and no price${javaScript ? '' : ', without JavaScript'}`, async () => {
        const { context, page } = await offlinePage(browser, server.url, { viewport: SIZES.phone, javaScriptEnabled: javaScript });
        await page.goto(`${server.url}/quote`);
        if (javaScript) {
          await page.getByLabel('Kind of cleaning', { exact: true }).selectOption('Deep clean');
          await choose(page, 'Bedrooms', '2');
        }
        expect(await page.locator('[data-price-guide]').count()).toBe(0);
        expect(await page.locator('body').innerText()).not.toMatch(/\$|what it may cost|starting price/i);
        await context.close();
      });

    it('the home page states no starting price', async () => {
      expect(await (await fetch(`${server.url}/`)).text()).not.toMatch(/data-starting-price|Prices start at/);
    });

    it('GET /api/v1, /llms.txt and /developers publish no prices', async () => {
      const status = await (await fetch(`${server.url}/api/v1`)).json();
      expect(status.services).toContain('Deep clean');
      expect(status).not.toHaveProperty('priceGuide');
      expect(await (await fetch(`${server.url}/llms.txt`)).text()).not.toMatch(/priceGuide|starting prices/i);
      const developers = await (await fetch(`${server.url}/developers`)).text();
      expect(developers).not.toMatch(/data-price-guide-agents|starting prices/i);
    });
  });
});
