/**
 * The office's day in pictures (`docs/office.md`), taken by this test in headless Chromium against
 * the built server, so that they show what the office really sees: a store of twelve weeks' leads,
 * the inbox at a glance on a laptop (the weeks' leads, and whether the promise was kept), a lead opened on a phone with a note and its owner, a change
 * kept through a sign-in, and a deletion request with its tick boxes. Each picture is written only
 * when what the browser shows has changed (`saveGuidePicture`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS } from '../../src/leads/retention.ts';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { answerBy } from '../../src/leads/next-step.ts';
import { contact, newClient, promise, quote } from '../support/fixtures.ts';
import { addUser, openLead, STAFF } from '../support/office.ts';
import { PICTURE_CLOCK, pictureClockEnv, saveGuidePicture } from '../support/screenshot.ts';
import { seedSqliteFile } from '../support/seed.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';
import { REFERENCE_ALPHABET } from '../../src/leads/reference.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import type { SpamReason } from '../../src/office/store.ts';

const DAY = 86_400_000;
/** The server's clock, still at the pictures' instant: every date the pictures show is the same on every run. */
const NOW = Date.parse(PICTURE_CLOCK);
/** The phone of the first lead, which a second person uses too. */
const SHARED_PHONE = '(503) 555-0100';
const SERVICES = ['Standard clean', 'Deep clean', 'Move-in / move-out clean', 'Regular clean', 'Standard clean'];
const PEOPLE = ['Maria Lopez', 'Sam Okafor', 'Priya Natarajan', 'Tom Becker', 'Ana Souza', 'Jon Eriksen', 'Lena Fischer', 'Omar Haddad'];

describe.skipIf(!chromiumAvailable())("the office's day, in pictures", () => {
  let dir: string;
  let server: RunningServer;
  let browser: Browser;
  let newest: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'office-pictures-'));
    const file = join(dir, 'leads.sqlite');
    // Twelve weeks of requests, a few a day, the newest this morning.
    const count = 84;
    // At office hours' pace: the newest a few minutes ago, one a day before it, at varied times.
    const receivedAt = (i: number) => new Date(NOW - (count - 1 - i) * DAY - (20 + (i % 5) * 97) * 60_000);
    const references = await seedSqliteFile(file, count, {
      batch: count,
      receivedAt,
      // The same references on every run, as every other thing the pictures show.
      reference: (i) => {
        // Six signs, the digits of a number of its own for each lead in the references' alphabet.
        const signs: string[] = [];
        for (let n = 104_729 + i * 7_919, k = 0; k < 6; k++, n = Math.floor(n / REFERENCE_ALPHABET.length))
          signs.push(REFERENCE_ALPHABET[n % REFERENCE_ALPHABET.length]!);
        return `${i % 7 === 3 ? 'C' : 'Q'}-${signs.slice(0, 4).join('')}-${signs.slice(4).join('')}`;
      },
      answerBy: (i) => answerBy(receivedAt(i), promise()),
      body: (i) => {
        // Two people who share a phone (a couple): a deletion request by that number finds both.
        const name = i === 42 ? 'Luis Lopez' : PEOPLE[i % PEOPLE.length]!;
        const email = `${name.toLowerCase().replace(' ', '.')}.${i}@example.com`;
        const phone = i === 42 ? SHARED_PHONE : `(503) 555-01${String(i % 100).padStart(2, '0')}`;
        return i % 7 === 3
          ? contact({ name, email, phone })
          : quote({
              name,
              email,
              phone,
              service: SERVICES[i % SERVICES.length],
              bedrooms: String(1 + (i % 4)),
              bathrooms: i % 2 ? '2' : '1.5',
              postalCode: '97214',
              notes: i % 3 ? 'A dog who is friendly; parking in the driveway.' : '',
            });
      },
    });
    newest = references.at(-1)!;
    // Most of the older ones called back and done, as a real inbox is: first contacted during the
    // working day their answer was promised by, a few the morning after it (late).
    const db = new DatabaseSync(file);
    db.prepare(
      `UPDATE leads SET first_contact_by = ?, first_contact_at = CASE WHEN rowid % 7 = 2 OR rowid % 11 = 0
         THEN strftime('%Y-%m-%dT%H:%M:%fZ', answer_by, '+15 hours') ELSE strftime('%Y-%m-%dT%H:%M:%fZ', answer_by, '-' || (40 + (rowid * 53) % 500) || ' minutes') END
       WHERE received_at < ?`,
    ).run(STAFF.email, new Date(NOW - 3 * DAY).toISOString());
    db.prepare("UPDATE leads SET status = 'done', status_by = ?, status_at = first_contact_at WHERE received_at < ?").run(
      STAFF.email,
      new Date(NOW - 14 * DAY).toISOString(),
    );
    db.prepare("UPDATE leads SET status = 'contacted', status_by = ?, status_at = first_contact_at WHERE status = 'new' AND received_at < ?").run(
      STAFF.email,
      new Date(NOW - 3 * DAY).toISOString(),
    );
    db.close();
    // Suspected spam of this morning: three programs and one real customer, each as a line of its own.
    const store = openSqliteStore(file);
    const caught: Array<[string, string, SpamReason, Record<string, unknown>]> = [
      ['Cheap Followers', 'Q-CCCC-4A', 'hidden field filled in', quote({ name: 'Cheap Followers', notes: 'Buy 10,000 followers today at a low price!' })],
      [
        'Rosa Delgado',
        'Q-RRRR-4B',
        'sent faster than a person fills it in',
        quote({ name: 'Rosa Delgado', notes: 'Move-out clean on the 12th, keys with the manager.' }),
      ],
      ['SEO Expert', 'C-KKKK-4C', 'no valid form token', contact({ name: 'SEO Expert', message: 'We can put your site on the first page of every search.' })],
      ['Best Loans', 'Q-BBBB-4D', 'hidden field filled in', quote({ name: 'Best Loans', notes: 'Loans approved in minutes, no checks.' })],
    ];
    for (const [i, [, reference, reason, body]] of caught.entries())
      await store.keepSpam(
        {
          id: `picture-spam-${i}`,
          reference,
          formType: reference.startsWith('C') ? 'support' : 'quote',
          receivedAt: new Date(NOW - (i + 1) * 47 * 60_000),
          reason,
          body,
          meta: { receivedVia: '/quote', channel: 'web-form', clientAddress: '198.51.100.8', userAgent: 'Mozilla/5.0' },
        },
        { emailNormalised: '', phoneE164: '' },
      );
    await store.close();
    const port = await freePort();
    server = await startServer({ dir, env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, ...pictureClockEnv() } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const visitor = (width: number, height: number) => offlinePage(browser, server.url, { viewport: { width, height }, extraHTTPHeaders: newClient() });
  async function signIn(page: Page) {
    await page.getByLabel('E-mail address').fill(STAFF.email);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('the morning: the inbox at a glance on a laptop, counts, twelve weeks and the newest first', async () => {
    const { context, page } = await visitor(1280, 1000);
    await page.goto(`${server.url}/office`);
    await signIn(page);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect(await page.locator('.counts').last().innerText()).toContain('came in today');
    expect(await page.locator('svg').count()).toBeGreaterThan(0);
    await saveGuidePicture(page, 'office-inbox');
    // Further down the first page: the last twelve weeks, by form and service.
    await page.getByRole('heading', { name: 'Leads per week' }).scrollIntoViewIfNeeded();
    await page.evaluate(() => document.querySelector('#weeks-heading')!.scrollIntoView({ block: 'start' }));
    await saveGuidePicture(page, 'office-weeks');
    // Under it: is the promise kept? Each week's leads in time and late, and the median time to a first contact.
    await page.evaluate(() => document.querySelector('#promise-heading')!.scrollIntoView({ block: 'start' }));
    expect(await page.getByRole('img', { name: /answered in time and late/ }).count()).toBe(1);
    await saveGuidePicture(page, 'office-promise');
    await context.close();
  });

  it('the morning on a phone: the waiting leads, the most urgent first, in the first screen', async () => {
    const { context, page } = await visitor(390, 844);
    await page.goto(`${server.url}/office`);
    await signIn(page);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    expect((await page.locator('li.lead.compact').first().boundingBox())!.y).toBeLessThan(844);
    await saveGuidePicture(page, 'office-inbox-phone');
    await context.close();
  });

  it('a call: the newest lead opened on a phone, taken, with a note of what was said', async () => {
    const { context, page } = await visitor(390, 844);
    await page.goto(`${server.url}/office`);
    await signIn(page);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    // One form, sent once: who has it and a note of the call (the status is set after lunch).
    let row = await openLead(page, newest);
    await row.getByLabel('Who has it').selectOption({ label: 'You' });
    await row.getByLabel(/^Note of the call/).fill('Called at 9:40: she would like Thursday morning; two cats, side door.');
    await row.getByRole('button', { name: 'Save' }).click();
    row = await openLead(page, newest);
    await row.scrollIntoViewIfNeeded();
    expect(await row.innerText()).toContain('Taken by you');
    await saveGuidePicture(page, 'office-lead');
    await context.close();
  });

  it('after lunch: a change made once the session had ended, kept through the sign-in', async () => {
    const { context, page } = await visitor(390, 844);
    await page.goto(`${server.url}/office`);
    await signIn(page);
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    // The lead opened while signed in; its session then ends before the change is sent.
    const row = await openLead(page, newest);
    const db = new DatabaseSync(server.databaseUrl.replace(/^file:/, ''));
    db.prepare('UPDATE office_sessions SET last_seen_at = ?').run(new Date(NOW - SESSION_IDLE_MS - 60_000).toISOString());
    db.close();
    await row.getByLabel('Status').selectOption('contacted');
    await row.getByRole('button', { name: 'Save' }).click();
    expect(await page.getByRole('status').innerText()).toContain('your change has not been made yet');
    await signIn(page);
    await page.getByRole('heading', { name: 'Your change' }).waitFor();
    await saveGuidePicture(page, 'office-held-change');
    await context.close();
  });

  it('the spam check: what the traps caught this morning, a line each, one of them a real customer', async () => {
    const { context, page } = await visitor(390, 844);
    await page.goto(`${server.url}/office/spam`);
    await signIn(page);
    await page.getByRole('heading', { name: 'Suspected spam' }).first().waitFor();
    const rows = page.locator('li.lead.caught');
    expect(await rows.count()).toBe(4);
    // The real customer opened in place: what she wrote, and the buttons.
    await rows.filter({ hasText: 'Rosa Delgado' }).locator(':scope > details > summary').click();
    expect(await rows.filter({ hasText: 'Rosa Delgado' }).getByRole('button', { name: 'Move to the inbox' }).isVisible()).toBe(true);
    await page.evaluate(() => document.querySelector('li.lead.caught')!.scrollIntoView({ block: 'start' }));
    await saveGuidePicture(page, 'office-spam');
    await context.close();
  });

  it('a deletion request: everything found for a phone number two people share, each with its tick box', async () => {
    const { context, page } = await visitor(1280, 900);
    await page.goto(`${server.url}/office/delete`);
    await signIn(page);
    await page.getByLabel('Phone number').fill(SHARED_PHONE);
    await page.getByRole('button', { name: /find/i }).click();
    await page.getByRole('checkbox').first().waitFor();
    expect(await page.getByRole('checkbox').count()).toBe(2);
    // Only Maria asked: Luis's request stays.
    await page.getByRole('checkbox', { name: /Luis Lopez/ }).uncheck();
    await saveGuidePicture(page, 'office-delete');
    await context.close();
  });
});
