/**
 * Trust, as content: the towns served always show, on the home page and beside the quote and
 * contact forms; the address, the license and insurance, the guarantee and the reviews show only
 * once the editors fill them in (`content/trust.yaml`). The shipped content fills none of them in,
 * so no claim and no review appears; a copy of the project with them filled in (the shipped file's
 * own examples, uncommented, and two more reviews) shows each, accessible and fitting a phone.
 */
import AxeBuilder from '@axe-core/playwright';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { copyProject, type ProjectCopy } from '../support/project-copy.ts';
import { ROOT, startServer, type RunningServer } from '../support/server.ts';

const PAGES = ['/', '/quote', '/contact'];
const TOWNS = 'Portland, Oregon and Vancouver, Washington';
const SIZES = { phone: { width: 390, height: 844 }, laptop: { width: 1280, height: 800 } };
/** Words no page may carry while the business has not filled its claims or reviews in. */
const CLAIMS = /licen[cs]|insur|guarant|review|customers say/i;

/** `content/trust.yaml` as shipped, with its examples uncommented, and two more reviews: the newest and the oldest. */
function filledIn(): string {
  const shipped = readFileSync(join(ROOT, 'content/trust.yaml'), 'utf8');
  const uncommented = shipped.replace(/^ {2}# (?=(?:address|licenseAndInsurance|guarantee|reviews):| {2})/gm, '  ');
  return `${uncommented}    - name: Sam K.\n      date: 2026-11-02\n      text: Friendly, quick and thorough; the office called back the same morning.\n    - name: Dana P.\n      date: 2026-09-20\n      town: Vancouver\n      text: They noticed things I had stopped seeing.\n`;
}

describe.skipIf(!chromiumAvailable())('trust, as content, in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe('with the content as shipped: only the towns', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer();
    });
    afterAll(async () => {
      await server?.dispose();
    });

    for (const path of PAGES) {
      it(`${path} names the towns served and makes no claim nor shows a review`, async () => {
        const { context, page } = await offlinePage(browser, server.url, { viewport: SIZES.phone });
        await page.goto(`${server.url}${path}`);
        const trust = page.locator('[data-trust]');
        expect(await trust.count()).toBe(1);
        expect(await trust.locator('[data-trust-area]').innerText()).toContain(TOWNS);
        for (const part of ['address', 'license', 'guarantee', 'reviews']) expect(await trust.locator(`[data-trust-${part}]`).count(), part).toBe(0);
        expect(await page.locator('body').innerText()).not.toMatch(CLAIMS);
        await context.close();
      });
    }
  });

  describe('with the content filled in: each part, on every page', () => {
    let copy: ProjectCopy;
    let server: RunningServer;
    const scratch = mkdtempSync(join(tmpdir(), 'trust-html-'));
    beforeAll(async () => {
      copy = copyProject('trust-');
      copy.write('content/trust.yaml', filledIn());
      const build = await copy.build();
      expect(build.output).toBe('');
      server = await startServer({ project: copy.dir });
    });
    afterAll(async () => {
      await server?.dispose();
      copy?.dispose();
      rmSync(scratch, { recursive: true, force: true });
    });

    for (const path of PAGES)
      for (const [size, viewport] of Object.entries(SIZES))
        for (const javaScript of path === '/' ? [true] : [true, false]) {
          it(`${path} on a ${size}${javaScript ? '' : ' without JavaScript'}: towns, address, license, guarantee and the newest reviews, fitting the screen`, async () => {
            const { context, page, cspErrors } = await offlinePage(browser, server.url, { viewport, javaScriptEnabled: javaScript });
            await page.goto(`${server.url}${path}`);
            const trust = page.locator('[data-trust]');
            await trust.scrollIntoViewIfNeeded();
            expect(await trust.locator('[data-trust-area]').innerText()).toContain(TOWNS);
            expect(await trust.locator('[data-trust-address]').innerText()).toContain('1200 SE Example Street, Suite 4, Portland, OR 97214');
            // The quotes keep the whole sentence: the "#" inside is not a comment.
            expect(await trust.locator('[data-trust-license]').innerText()).toContain('Licensed in Oregon (CCB #000000) and insured for $2,000,000.');
            expect(await trust.locator('[data-trust-guarantee]').innerText()).toContain('Tell us within 24 hours and we come back to clean it again, free.');
            for (const part of ['area', 'address', 'license', 'guarantee', 'reviews'])
              expect(await trust.locator(`[data-trust-${part}]`).isVisible(), part).toBe(true);
            // Newest first, each with its name and day; beside a form, the two newest only.
            const captions = await trust.locator('[data-trust-reviews] figcaption').allInnerTexts();
            const all = ['Sam K., November 2, 2026', 'Maria L., Portland, October 12, 2026', 'Dana P., Vancouver, September 20, 2026'];
            expect(captions).toEqual(path === '/' ? all : all.slice(0, 2));
            expect(await trust.locator('[data-trust-reviews] time').first().getAttribute('datetime')).toBe('2026-11-02');
            expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
            expect(cspErrors).toEqual([]);
            await context.close();
          });
        }

    for (const path of PAGES)
      it(`${path} passes axe with every part shown`, async () => {
        const { context, page } = await offlinePage(browser, server.url, { viewport: SIZES.laptop });
        await page.goto(`${server.url}${path}`);
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
        await context.close();
      });

    it('the pages with every part shown pass html-validate', async () => {
      const files = await Promise.all(
        PAGES.map(async (path, i) => {
          const file = join(scratch, `${i}.html`);
          writeFileSync(file, await (await fetch(`${server.url}${path}`)).text());
          return file;
        }),
      );
      const report = await promisify(execFile)('npx', ['--no-install', 'html-validate', '--formatter', 'text', ...files], { cwd: ROOT }).then(
        () => '',
        (err: { stdout?: string; stderr?: string; message: string }) => `${err.stdout ?? ''}${err.stderr ?? ''}` || err.message,
      );
      expect(report).toBe('');
    });
  });
});
