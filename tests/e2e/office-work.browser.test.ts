/**
 * The office, third round (issue 46, items 4 to 6), in headless Chromium against the built server:
 * a lead worked in place (status, who has it and a note in one form, sent once: one change, an audit
 * line each, and the page back at that lead, open, its result in words); work handed out (an owner
 * gives a lead to a colleague named by an opaque id, staff take leads for themselves, "mine" holds
 * what was given); and the same person's other leads and caught submissions, marked and linked by
 * reference alone. At 390 × 844 and 1024 × 768, with and without JavaScript.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ID } from '../../src/office/store.ts';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { contact, newClient, quote } from '../support/fixtures.ts';
import { addUser, officePost, openLead, sentLead, sentTooFast, showFilters, signedIn, signInOnPage, STAFF } from '../support/office.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';

const HELPER = { email: 'helper@example.com', password: 'sponge and broom 2026' } as const;
const VIEWS = [
  { width: 390, height: 844, javaScript: false },
  { width: 390, height: 844, javaScript: true },
  { width: 1024, height: 768, javaScript: false },
  { width: 1024, height: 768, javaScript: true },
] as const;

describe.skipIf(!chromiumAvailable())('the office’s third round in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({ env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    await addUser(server.databaseUrl, HELPER.email, HELPER.password, ['--role', 'staff']);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  /** A visitor of its own (a client of its own), at `view`, which records every address its page asks for. */
  async function visitor(view: { width: number; height: number; javaScript: boolean }) {
    const opened = await offlinePage(browser, server.url, {
      viewport: { width: view.width, height: view.height },
      javaScriptEnabled: view.javaScript,
      extraHTTPHeaders: newClient(),
    });
    const asked: Array<{ method: string; url: string }> = [];
    opened.page.on('request', (r) => asked.push({ method: r.method(), url: r.url() }));
    return { ...opened, asked };
  }

  /** Whether the top of `selector` is within the page's first screen as it is scrolled now. */
  const inView = (page: Page, selector: string) =>
    page.locator(selector).evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.top > -1 && box.top < window.innerHeight && box.height > 0;
    });

  it('works a lead in place: one form, sent once, one audit line a change, and back at that lead, open, its result in words', async () => {
    for (const view of VIEWS) {
      const tag = `${view.width}${view.javaScript ? 'js' : ''}`;
      const reference = await sentLead(
        server.url,
        quote({ name: `Wanda Work ${tag}`, email: `wanda.${tag}@example.com`, phone: `(503) 555-03${view.width % 90}` }),
      );
      // A page of newer leads above it: the page must come back to this one, not to its top.
      for (let i = 0; i < 6; i++)
        await sentLead(server.url, quote({ name: `Newer Ned ${tag} ${i}`, email: `ned.${tag}.${i}@example.com`, phone: `(503) 555-04${10 + i}` }));
      const { context, page, asked } = await visitor(view);
      await signInOnPage(page, server.url);
      await page.goto(`${server.url}/office?view=all`);
      const row = await openLead(page, reference);
      await row.getByLabel('Status').selectOption('contacted');
      await row.getByLabel('Who has it').selectOption({ label: HELPER.email });
      await row.getByLabel(/^Note of the call/).fill('Called; she wants Tuesdays.');
      asked.length = 0;
      await row.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').waitFor();
      // Sent once: one POST, to the one form's address.
      expect(asked.filter((r) => r.method === 'POST').map((r) => new URL(r.url).pathname)).toEqual(['/office/work']);
      expect(new URL(page.url()).hash).toBe(`#lead-${reference}`);
      const said = await page.getByRole('status').innerText();
      expect(said).toContain(`Saved: ${reference} is now contacted.`);
      expect(said).toContain(`You gave ${reference} to ${HELPER.email}.`);
      expect(said).toContain(`Saved: a note on ${reference}.`);
      const back = page.locator(`#lead-${reference}`);
      expect(await back.locator(':scope > details').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
      // The browser scrolls to the lead's address while the page loads: wait for where it settles.
      await expect.poll(() => inView(page, `#lead-${reference} [role="status"]`), { message: tag }).toBe(true);
      expect(await back.innerText()).toContain(`Taken by ${HELPER.email}`);
      expect(await back.innerText()).toContain('Called; she wants Tuesdays.');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);
      // One audit line each, never the note's words.
      await page.goto(`${server.url}/office/system`);
      const activity = await page.locator('#activity + table').innerText();
      for (const line of [`Changed ${reference} from New to Contacted.`, `Gave ${reference} to ${HELPER.email}.`, `Added a note to ${reference}.`])
        expect(activity.split(line).length - 1, line).toBe(1);
      expect(activity).not.toContain('Tuesdays');
      // Nothing changed is said so, at the lead.
      await page.goto(`${server.url}/office?lead=${reference}`);
      await page.locator(`#lead-${reference}`).getByRole('button', { name: 'Save' }).click();
      expect(await page.getByRole('status').innerText()).toContain(`Nothing to save on ${reference}`);
      await context.close();
    }
  });

  it('hands out work: an owner gives a lead to a colleague by an opaque id, staff take leads for themselves, and "mine" holds what was given', async () => {
    for (const javaScript of [false, true]) {
      const given = await sentLead(server.url, quote({ name: `Gina Given ${javaScript}`, email: `gina.${javaScript}@example.com`, phone: '(503) 555-0501' }));
      const theirs = await sentLead(server.url, quote({ name: `Tom Taken ${javaScript}`, email: `tom.${javaScript}@example.com`, phone: '(503) 555-0502' }));
      // The owner gives one lead to the helper, and takes the other.
      const boss = await visitor({ width: 1024, height: 768, javaScript });
      await signInOnPage(boss.page, server.url);
      await boss.page.goto(`${server.url}/office?view=all`);
      const choices = await (
        await openLead(boss.page, given)
      )
        .getByLabel('Who has it')
        .locator('option')
        .evaluateAll((options) => options.map((o) => [(o as HTMLOptionElement).value, o.textContent!.trim()]));
      const helperId = choices.find(([, words]) => words === HELPER.email)![0]!;
      expect(helperId).toMatch(ACCOUNT_ID);
      expect(choices.map(([value]) => value)).toEqual(['nobody', 'me', helperId]);
      await boss.page.locator(`#lead-${given}`).getByLabel('Who has it').selectOption(helperId);
      await boss.page.locator(`#lead-${given}`).getByRole('button', { name: 'Save' }).click();
      expect(await boss.page.getByRole('status').innerText()).toContain(`You gave ${given} to ${HELPER.email}.`);
      await boss.page.goto(`${server.url}/office?view=all`);
      await (await openLead(boss.page, theirs)).getByLabel('Who has it').selectOption('me');
      await boss.page.locator(`#lead-${theirs}`).getByRole('button', { name: 'Save' }).click();
      expect(await boss.page.getByRole('status').innerText()).toContain(`You have taken ${theirs}.`);
      // The "Taken by" filter names the colleague by their id: the address holds it, never the e-mail.
      await boss.page.goto(`${server.url}/office`);
      await showFilters(boss.page);
      await boss.page.getByLabel('Taken by').selectOption({ label: HELPER.email });
      await boss.page.getByRole('button', { name: 'Apply filters' }).click();
      expect(new URL(boss.page.url()).searchParams.get('owner')).toBe(helperId);
      expect(await boss.page.locator('li.lead', { hasText: given }).count()).toBe(1);
      expect(await boss.page.locator('li.lead', { hasText: theirs }).count()).toBe(0);
      expect(boss.asked.filter((r) => r.url.includes('%40') || r.url.includes('@'))).toEqual([]);
      await boss.page.goto(`${server.url}/office?owner=${encodeURIComponent(HELPER.email)}`);
      expect(new URL(boss.page.url()).searchParams.has('owner')).toBe(false);
      expect(await boss.page.getByRole('alert').first().innerText()).toContain('“Taken by” box held something');
      await boss.page.goto(`${server.url}/office?owner=aaaaaaaaaaaa`);
      expect(new URL(boss.page.url()).searchParams.has('owner')).toBe(false);
      await boss.context.close();

      // The helper: "mine" holds what was given; staff take a colleague's lead for themselves, and give to nobody else.
      const helper = await visitor({ width: 390, height: 844, javaScript });
      await signInOnPage(helper.page, server.url, HELPER);
      await helper.page.goto(`${server.url}/office?owner=mine`);
      expect(await helper.page.locator('li.lead', { hasText: given }).innerText()).toContain('Taken by you');
      await helper.page.goto(`${server.url}/office?view=all`);
      const row = await openLead(helper.page, theirs);
      expect(await row.locator('.row-owner').innerText()).toBe(`Taken by ${STAFF.email}`);
      const staffChoices = await row
        .getByLabel('Who has it')
        .locator('option')
        .evaluateAll((options) => options.map((o) => o.textContent!.trim()));
      expect(staffChoices).toEqual([STAFF.email, 'You']);
      await row.getByLabel('Who has it').selectOption('me');
      await row.getByRole('button', { name: 'Save' }).click();
      expect(await helper.page.getByRole('status').innerText()).toContain(`You have taken ${theirs}.`);
      expect(await helper.page.locator(`#lead-${theirs} .row-owner`).innerText()).toBe('Taken by you');
      const cookie = await signedIn(server.url, HELPER, newClient());
      const bossId = choices.find(([value]) => value !== 'nobody' && value !== 'me' && value !== helperId)?.[0];
      expect(bossId).toBeUndefined(); // the owner's own account is "You" to them
      const forged = await officePost(
        server.url,
        '/office/work',
        { reference: theirs, owner: helperId.replace(/./, 'z'), 'was-owner': 'me', back: '/office' },
        cookie,
      );
      expect(forged.status).toBe(403);
      expect(await forged.text()).toContain('Staff take leads for themselves');
      await helper.page.goto(`${server.url}/office/system`);
      await helper.context.close();
      const audit = await visitor({ width: 1024, height: 768, javaScript });
      await signInOnPage(audit.page, server.url);
      await audit.page.goto(`${server.url}/office/system`);
      const activity = await audit.page.locator('#activity + table').innerText();
      expect(activity).toContain(`Gave ${given} to ${HELPER.email}.`);
      expect(activity).toContain(`Took ${theirs}.`);
      await audit.context.close();
    }
  });

  it('marks a lead whose person sent more than one, and links their other leads and caught submissions by reference alone', async () => {
    const ada = { name: 'Ada Again', email: 'ada.again@example.com', phone: '(503) 555-0611' };
    const first = await sentLead(server.url, quote(ada));
    const second = await sentLead(server.url, contact({ name: 'Ada A.', email: ada.email, phone: '(503) 555-0612' }));
    const caught = await sentTooFast(browser, server, { name: 'Ada Again', phone: ada.phone, email: 'ada.other@example.com' });
    const latest = await sentLead(server.url, quote({ ...ada, email: 'ada.third@example.com', notes: 'A third time.' }));
    for (const view of [VIEWS[0], VIEWS[3]]) {
      const { context, page } = await visitor(view);
      await signInOnPage(page, server.url);
      await page.goto(`${server.url}/office?view=all`);
      // In the list: a small marker on each of the person's leads, none on another's.
      expect(await page.locator(`#lead-${latest} summary .same-person-mark`).innerText()).toBe('3 from this person');
      expect(await page.locator(`#lead-${second} summary .same-person-mark`).innerText()).toBe('2 from this person');
      const row = await openLead(page, latest);
      const links = row.locator('.same-person a');
      expect(await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href')))).toEqual([
        `/office?view=all&lead=${caught}#caught-heading`,
        `/office?view=all&lead=${first}#lead-${first}`,
      ]);
      expect(await row.locator('.same-person').innerText()).toContain('Caught as suspected spam');
      expect(await row.locator('.same-person').innerText()).toContain('(same phone)');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width);
      await links.last().click();
      await page.locator(`#lead-${first}`).waitFor();
      expect(new URL(page.url()).search).toBe(`?view=all&lead=${first}`);
      expect(await page.locator(`#lead-${first} > details`).evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
      await expect.poll(() => inView(page, `#lead-${first}`)).toBe(true);
      await page.goBack();
      await (await openLead(page, latest)).locator('.same-person a').first().click();
      await page.getByRole('heading', { name: 'Also found in suspected spam' }).waitFor();
      expect(await page.locator('.caught-results').innerText()).toContain('Move to the inbox');
      await context.close();
    }
  });
});
