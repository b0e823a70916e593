/**
 * The editors' guide's pictures (`docs/editors.md`), taken from `npm run dev` as editors see the
 * site, so that they stay true: the home page and the quote page, each part outlined and labelled
 * with the file (and field) it comes from. Drawn with the clock at the pictures' instant (the closed
 * days still to come, the answer promised), since dev renders every page when it is asked for, and
 * written only when their pixels change (`tests/support/screenshot.ts`); the picture of the mistakes
 * is `dev-content-errors.browser.test.ts`'s.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium } from '../support/browser.ts';
import { pictureClockEnv, saveGuidePicture } from '../support/screenshot.ts';
import { startDevServer, type RunningServer } from '../support/server.ts';

/** A part of a page, and the file it comes from. */
interface Callout {
  selector: string;
  label: string;
  color: string;
}

const COLORS = { company: '#b3261e', page: '#1d4ed8', trust: '#047857', form: '#6d28d9', nav: '#92400e' };

const HOME: Callout[] = [
  { selector: '.site-header-top', label: 'content/company.yaml: name, phone', color: COLORS.company },
  { selector: 'nav[aria-label="Main"]', label: "nav: in each page's and form's frontmatter", color: COLORS.nav },
  { selector: 'main > h1', label: 'content/index.mdx: title', color: COLORS.page },
  { selector: 'main > p:first-of-type', label: 'content/index.mdx: the text below the frontmatter', color: COLORS.page },
  { selector: 'main > h2 + ul', label: 'content/forms/quote.mdx: services', color: COLORS.form },
  { selector: '[data-starting-price]', label: 'content/forms/quote.mdx: prices (the lowest "from")', color: COLORS.form },
  { selector: '[data-trust]', label: 'content/trust.yaml, and serviceArea in content/company.yaml', color: COLORS.trust },
  { selector: 'main .office-hours', label: 'content/company.yaml: phone, hours', color: COLORS.company },
  { selector: 'main > p.updated', label: 'content/index.mdx: updated', color: COLORS.page },
  { selector: 'footer [aria-labelledby="footer-office"]', label: 'content/company.yaml: name, phone, email, hours, serviceArea', color: COLORS.company },
];

const QUOTE: Callout[] = [
  { selector: '.site-header-top', label: 'content/company.yaml: name, phone', color: COLORS.company },
  { selector: 'main > h1', label: 'content/forms/quote.mdx: title', color: COLORS.form },
  { selector: '.intro > p:first-of-type', label: 'content/forms/quote.mdx: the text below the frontmatter', color: COLORS.form },
  { selector: '.intro .office-hours', label: 'content/company.yaml: phone, hours', color: COLORS.company },
  { selector: '.intro [data-trust]', label: 'content/trust.yaml, and serviceArea in content/company.yaml', color: COLORS.trust },
  { selector: 'form .field:first-of-type', label: 'content/forms/quote.mdx: fields → name → label', color: COLORS.form },
  { selector: '#f-phone-hint', label: 'content/forms/quote.mdx: fields → phone → hint', color: COLORS.form },
  { selector: 'form select[name="service"]', label: 'content/forms/quote.mdx: services', color: COLORS.form },
  { selector: 'form [data-price-guide]', label: 'content/forms/quote.mdx: prices', color: COLORS.form },
  {
    selector: 'form .consent, form [data-consent], form input[name="consent"] + label',
    label: 'quote.mdx: consent; {company} is name in company.yaml',
    color: COLORS.form,
  },
  { selector: 'form [data-submit]', label: 'content/forms/quote.mdx: submit', color: COLORS.form },
];

/** Outlines each callout's part and writes its label above it; returns the selectors that found nothing. */
async function drawCallouts(page: Page, callouts: Callout[]): Promise<string[]> {
  await page.addStyleTag({
    content: `.guide-box{outline:3px solid var(--guide);outline-offset:3px}
.guide-tag{position:absolute;z-index:10;background:var(--guide);color:#fff;font:600 12px/1.4 ui-monospace,monospace;padding:1px 6px;border-radius:3px;white-space:nowrap}`,
  });
  return page.evaluate((list) => {
    const missing: string[] = [];
    for (const { selector, label, color } of list) {
      const element = document.querySelector<HTMLElement>(selector);
      if (!element) {
        missing.push(selector);
        continue;
      }
      element.classList.add('guide-box');
      element.style.setProperty('--guide', color);
      const box = element.getBoundingClientRect();
      const tag = document.createElement('span');
      tag.className = 'guide-tag';
      tag.textContent = label;
      tag.style.setProperty('--guide', color);
      document.body.append(tag);
      // Above the part, from its left edge, and never past the page's right edge.
      tag.style.left = `${Math.max(2, Math.min(box.left + scrollX - 3, document.documentElement.clientWidth - tag.offsetWidth - 2))}px`;
      tag.style.top = `${Math.max(0, box.top + scrollY - 22)}px`;
    }
    return missing;
  }, callouts);
}

describe.skipIf(!chromiumAvailable())("the editors' guide's pictures, from npm run dev", () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    // The clock runs on from the pictures' instant: dev's reloads need time to pass.
    [server, browser] = await Promise.all([startDevServer({ env: { SITE_URL: '', ...pictureClockEnv('running') } }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  for (const [name, path, callouts] of [
    ['editors-home', '/', HOME],
    ['editors-quote', '/quote', QUOTE],
  ] as const) {
    it(`${path}: each part labelled with its file (docs/images/${name}.png)`, async () => {
      // bypassCSP: the labels are a style and elements of the test's own, which the page's policy would refuse.
      const context = await browser.newContext({ viewport: { width: 800, height: 600 }, bypassCSP: true, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
      expect(await drawCallouts(page, [...callouts])).toEqual([]);
      await saveGuidePicture(page, name, { fullPage: true });
      await context.close();
    });
  }
});
