/**
 * The office, fourth round (issue 55, items 2 and 5), in headless Chromium against the built server,
 * at 390 × 844 with and without JavaScript: each lead, folded and opened, has a one-tap link for
 * exactly the ways its customer allowed, their first choice first, each way left out said in words
 * and no link, the number in one national format; the same person's other leads say their status
 * and who has them, and following one and coming back keeps the search, whose words never reach an
 * address.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../support/browser.ts';
import { contact, quote } from '../support/fixtures.ts';
import { openLead, sentLead, sentTooFast, signInOnPage } from '../support/office.ts';
import { HELPER, officeInChromium } from '../support/office-chromium.ts';

const VIEWS = [
  { width: 390, height: 844, javaScript: false },
  { width: 390, height: 844, javaScript: true },
] as const;

describe.skipIf(!chromiumAvailable())('reaching the customer as they allow, and the same person told whole, in Chromium', () => {
  const office = officeInChromium();
  const { visitor } = office;

  const hrefs = (links: Locator) => links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  const isOpen = (row: Locator) => row.locator(':scope > details').evaluate((d) => (d as HTMLDetailsElement).open);

  it('links exactly the ways each customer allowed, their first choice first, says the rest in words, and shows one national format', async () => {
    for (const view of VIEWS) {
      const tag = view.javaScript ? 'js' : 'plain';
      const mailOnly = await sentLead(
        office.server.url,
        quote({ name: `Erin Mailonly ${tag}`, email: `erin.${tag}@example.com`, phone: '5035550160', allowedContact: ['email'], preferredContact: 'email' }),
      );
      const textOnly = await sentLead(
        office.server.url,
        contact({ name: `Tess Textonly ${tag}`, email: `tess.${tag}@example.com`, phone: '503.555.0161', allowedContact: ['text'], preferredContact: 'text' }),
      );
      const any = await sentLead(
        office.server.url,
        quote({ name: `Al Anyway ${tag}`, email: `al.${tag}@example.com`, phone: '+1 503 555 0162', preferredContact: 'text' }),
      );
      const { context, page } = await visitor(view);
      await signInOnPage(page, office.server.url);
      await page.goto(`${office.server.url}/office?view=all`);
      // No link is inside a row's line (a link there is nested in the button that opens it).
      expect(await page.locator('summary a').count()).toBe(0);

      // E-mail only: folded, its row has the e-mail link alone and says "no calls, no texts"; opened, the same.
      const erin = page.locator('li.lead.compact', { hasText: mailOnly });
      expect(await isOpen(erin)).toBe(false);
      expect(await erin.locator('a[href^="tel:"], a[href^="sms:"]').count()).toBe(0);
      const folded = erin.locator(':scope > .reach-row');
      expect(await folded.isVisible()).toBe(true);
      expect(await folded.innerText()).toContain('no calls, no texts');
      expect(await hrefs(folded.locator('a'))).toEqual([`mailto:erin.${tag}@example.com`]);
      expect((await folded.locator('a').boundingBox())!.height).toBeGreaterThanOrEqual(44);
      // Opened light (its one link to the whole lead, without JavaScript), the links stay in sight; opened whole, they lead its part.
      await erin.locator(':scope > details > summary').click();
      if (!view.javaScript) expect(await folded.isVisible()).toBe(true);
      await openLead(page, mailOnly);
      expect(await folded.isVisible()).toBe(false);
      const contactLine = erin.locator('.lead-open .reach');
      expect(await contactLine.isVisible()).toBe(true);
      expect(await hrefs(contactLine.locator('a'))).toEqual([`mailto:erin.${tag}@example.com`]);
      expect(await contactLine.innerText()).toContain('(503) 555-0160');
      expect(await contactLine.innerText()).toContain('No calls, no texts');
      expect(await erin.locator('.lead-open').innerText()).toContain('E-mail only: no calls, no texts');

      // Texts only, typed with dots: the text link first (and alone), the number in national format.
      const tess = page.locator('li.lead.compact', { hasText: textOnly });
      expect(await hrefs(tess.locator(':scope > .reach-row a'))).toEqual(['sms:+15035550161']);
      expect(await tess.locator(':scope > .reach-row').innerText()).toContain('(503) 555-0161');
      expect(await tess.locator(':scope > .reach-row').innerText()).toContain('no calls, no e-mail');
      expect(await tess.locator('a[href^="tel:"], a[href^="mailto:"]').count()).toBe(0);
      await openLead(page, textOnly);
      const tessLine = tess.locator('.lead-open .reach');
      expect(await tessLine.locator('a').first().getAttribute('href')).toBe('sms:+15035550161');
      // Its name says whom it reaches.
      expect(await tessLine.getByRole('link', { name: 'Text (503) 555-0161', exact: true }).getAttribute('href')).toBe('sms:+15035550161');
      expect((await tessLine.locator('a').first().boundingBox())!.height).toBeGreaterThanOrEqual(44);

      // No limit: all three, the text they chose first leading, the number as the office dials it.
      const al = page.locator('li.lead.compact', { hasText: any });
      expect(await hrefs(al.locator(':scope > .reach-row a'))).toEqual(['sms:+15035550162', 'tel:+15035550162', `mailto:al.${tag}@example.com`]);
      expect(await al.locator(':scope > .reach-row').innerText()).toContain('(503) 555-0162');
      expect(await al.locator(':scope > .reach-row').innerText()).not.toContain('no ');
      for (const link of await al.locator(':scope > .reach-row a').all()) expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);
      // Rows folded and opened, their links beside their lines: axe finds nothing (no link nested in a row's button).
      // (axe runs as a script of the page: with JavaScript on alone.)
      if (view.javaScript) expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
      await context.close();
    }
  });

  it('says the status and who has each of the same person’s leads, and keeps the search through one and back, its words in no address', async () => {
    for (const view of VIEWS) {
      const tag = view.javaScript ? 'js' : 'plain';
      const words = `Sam Twice${tag}`;
      const line = view.javaScript ? 73 : 71;
      const sam = { name: words, email: `sam.twice.${tag}@example.com`, phone: `(503) 555-01${line}` };
      const first = await sentLead(office.server.url, quote(sam));
      const second = await sentLead(office.server.url, contact({ ...sam, phone: `(503) 555-01${line + 1}` }));
      // Caught as spam, under another name: the search does not find it, the same phone does.
      const caught = await sentTooFast(office.browser, office.server, { name: 'S. T.', email: `s.t.${tag}@example.com`, phone: sam.phone });
      const { context, page, asked } = await visitor(view);
      await signInOnPage(page, office.server.url);
      // The first is contacted and given to the helper.
      await page.goto(`${office.server.url}/office?view=all`);
      const row = await openLead(page, first);
      await row.getByLabel('Status').selectOption('contacted');
      await row.getByLabel('Who has it').selectOption({ label: HELPER.email });
      await row.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').waitFor();

      // Searched by name: the address holds a handle, never the words.
      await page.getByLabel('Name, e-mail, phone or reference').fill(words);
      await page.getByLabel('Name, e-mail, phone or reference').press('Enter');
      await page.waitForURL(/search=/);
      await page.waitForLoadState('load');
      const searched = page.url();
      expect(new URL(searched).searchParams.get('search')).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(await page.locator('li.lead.compact').count()).toBe(2);

      // Each link to the other lead says its status and who has it. (Without JavaScript a lead opens on a page of its own, the search kept.)
      const handle = new URL(searched).searchParams.get('search');
      const toSecond = (await openLead(page, first)).locator(`.same-person a[href*="lead=${second}"]`);
      expect(await toSecond.innerText()).toContain('New');
      expect(await toSecond.innerText()).toContain('nobody has it');
      expect(new URL(page.url()).searchParams.get('search')).toBe(handle);
      const toFirst = (await openLead(page, second)).locator(`.same-person a[href*="lead=${first}"]`);
      expect(await toFirst.innerText()).toContain('Contacted');
      expect(await toFirst.innerText()).toContain(`${HELPER.email} has it`);
      expect(new URL(page.url()).searchParams.get('search')).toBe(handle);

      // Followed: the lead opens in the searched list, the search still in its box.
      const before = page.url();
      await toFirst.click();
      await page.waitForURL(new RegExp(`lead=${first}`));
      await page.waitForLoadState('load');
      expect(new URL(page.url()).searchParams.get('search')).toBe(handle);
      expect(await isOpen(page.locator(`#lead-${first}`))).toBe(true);
      expect(await page.getByLabel('Name, e-mail, phone or reference').inputValue()).toBe(words);
      expect(await page.locator('li.lead.compact').count()).toBe(2);

      // Back: the searched list as it was.
      await page.goBack();
      await page.waitForLoadState('load');
      expect(page.url()).toBe(before);
      expect(new URL(page.url()).searchParams.get('search')).toBe(handle);
      expect(await page.getByLabel('Name, e-mail, phone or reference').inputValue()).toBe(words);
      expect(await page.locator('li.lead.compact').count()).toBe(2);

      // The caught submission, followed from the first lead: shown where a search shows them, the search kept.
      await (await openLead(page, first)).locator(`.same-person a[href*="lead=${caught}"]`).click();
      await page.getByRole('heading', { name: 'Also found in suspected spam' }).waitFor();
      await page.waitForLoadState('load');
      expect(new URL(page.url()).searchParams.get('search')).toBe(handle);
      expect(await page.locator('.caught-results').innerText()).toContain(caught);
      expect(await page.getByLabel('Name, e-mail, phone or reference').inputValue()).toBe(words);

      // No address the page asked for held the search's words.
      for (const url of asked) for (const word of words.split(' ')) expect(decodeURIComponent(url).toLowerCase()).not.toContain(word.toLowerCase());
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);
      await context.close();
    }
  });
});
