/**
 * The team's load (issue 55, item 4), in headless Chromium against the built server, at 390 × 844,
 * with and without JavaScript: an owner sees each person's waiting leads (a link to that list), the
 * late ones and today's first contacts, on the inbox; staff do not; a lead an owner gives to a
 * colleague is marked for that colleague alone until they open its own page. Then the guide's two
 * pictures of it (`docs/images/office-team-load.png`, `office-given-mark.png`), from fixed data at a
 * fixed instant.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ID } from '../../src/office/store.ts';
import { chromiumAvailable, launchChromium, offlinePage } from '../support/browser.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { addUser, openLead, sentLead, signInOnPage, STAFF } from '../support/office.ts';
import { PICTURE_CLOCK, pictureClockEnv, saveGuidePicture } from '../support/screenshot.ts';
import { seedSqliteFile } from '../support/seed.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';

const HELPER = { email: 'helper@example.com', password: 'sponge and broom 2026' } as const;
const PHONE = { width: 390, height: 844 } as const;

describe.skipIf(!chromiumAvailable())('the team’s load in Chromium', () => {
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

  const visitor = (javaScript: boolean) => offlinePage(browser, server.url, { viewport: PHONE, javaScriptEnabled: javaScript, extraHTTPHeaders: newClient() });
  const fitsThePhone = async (page: import('playwright-core').Page) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  it('shows an owner each person’s load, staff none, and marks a given lead for its receiver until they open it', async () => {
    for (const [round, javaScript] of [false, true].entries()) {
      const given = await sentLead(server.url, quote({ name: `Greta Given ${round}`, email: `greta.${round}@example.com`, phone: '(503) 555-0171' }));

      // The owner gives it to the helper from its row.
      const boss = await visitor(javaScript);
      await signInOnPage(boss.page, server.url);
      await boss.page.goto(`${server.url}/office?view=all`);
      const row = await openLead(boss.page, given);
      await row.getByLabel('Who has it').selectOption({ label: HELPER.email });
      await row.getByRole('button', { name: 'Save' }).click();
      expect(await boss.page.getByRole('status').innerText()).toContain(`You gave ${given} to ${HELPER.email}.`);
      // Not marked for the one who gave it.
      expect(await boss.page.locator(`#lead-${given} .given-mark`).count()).toBe(0);

      // The load, on the inbox's first page: one row per account, the helper's waiting leads a link to that list.
      await boss.page.goto(`${server.url}/office`);
      // Folded to its totals, so that the phone's first screen stays the waiting leads; a tap opens it.
      const load = boss.page.locator('details.team-load');
      expect(await load.getByRole('heading', { name: 'The team’s load' }).isVisible()).toBe(true);
      expect(await load.locator('summary').innerText()).toMatch(new RegExp(`${round + 1} waiting, 0 late`));
      await load.locator('summary').click();
      const helperRow = load.locator('tbody tr', { hasText: HELPER.email });
      // Waiting (a given lead each round, none answered yet), late (none yet due), first contacted today (none).
      const [waiting, late, today] = (await helperRow.locator('td').allInnerTexts()).map((t) => t.trim());
      expect(waiting).toMatch(new RegExp(`^${round + 1}\\b`));
      expect([late, today]).toEqual(['0', '0']);
      expect(await helperRow.getByRole('link').getAttribute('href')).toMatch(/^\/office\?owner=[a-z2-7]{12}&status=new$/);
      expect(await load.locator('tbody th').allInnerTexts()).toEqual(['You', HELPER.email]);
      await fitsThePhone(boss.page);
      await helperRow.getByRole('link').click();
      await boss.page.getByRole('heading', { name: 'Inbox' }).waitFor();
      const address = new URL(boss.page.url()).searchParams;
      expect(address.get('owner')).toMatch(ACCOUNT_ID);
      expect(address.get('status')).toBe('new');
      expect(await boss.page.locator('li.lead', { hasText: given }).count()).toBe(1);
      await boss.context.close();

      // Staff see no load; the lead given to them is marked, in its row, until they open it (its own page, or in place).
      const helper = await visitor(javaScript);
      await signInOnPage(helper.page, server.url, HELPER);
      expect(await helper.page.locator('.team-load').count()).toBe(0);
      expect(await helper.page.getByText('The team’s load').count()).toBe(0);
      await helper.page.goto(`${server.url}/office?owner=mine`);
      expect(await helper.page.locator(`#lead-${given} summary .given-mark`).innerText()).toBe(`Given to you by ${STAFF.email}`);
      expect(await helper.page.locator('p.list-order').innerText()).toContain('the most urgent first');
      await fitsThePhone(helper.page);
      if (javaScript) {
        // Opened in place: the script reads its whole part, which is what its own page is without JavaScript.
        const opened = await openLead(helper.page, given);
        await opened.getByRole('button', { name: 'Save' }).waitFor();
      } else {
        await helper.page.goto(`${server.url}/office?lead=${given}`);
        await helper.page.locator(`#lead-${given}`).waitFor();
      }
      await helper.page.goto(`${server.url}/office?owner=mine`);
      expect(await helper.page.locator(`li.lead`, { hasText: given }).count()).toBe(1);
      expect(await helper.page.locator(`#lead-${given} .given-mark`).count()).toBe(0);
      await helper.context.close();
    }
  });
});

describe.skipIf(!chromiumAvailable())('the team’s load, in pictures', () => {
  const NOW = Date.parse(PICTURE_CLOCK);
  const MINUTE = 60_000;
  const MARIA = { email: 'maria@example.com', password: 'sponge and broom 2026' } as const;
  const SAM = 'sam@example.com';
  const NAMES = ['Ana Souza', 'Jon Eriksen', 'Lena Fischer', 'Omar Haddad', 'Priya Natarajan', 'Tom Becker', 'Ruth Adler', 'Kofi Mensah', 'Ines Duarte'];
  let dir: string;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'team-load-pictures-'));
    const file = join(dir, 'leads.sqlite');
    // Nine requests of this morning and last night, the same references on every run; some past their answer-by.
    const receivedAt = (i: number) => new Date(NOW - (20 + i * 47) * MINUTE);
    const answerBy = (i: number) => new Date(NOW + (i % 3 === 0 ? -40 - i * 10 : 90 + i * 20) * MINUTE);
    const references = await seedSqliteFile(file, NAMES.length, {
      batch: NAMES.length,
      receivedAt,
      answerBy,
      reference: (i) => `Q-${'MNPQRTWXY'[i]}K3M-4P`,
      body: (i) => quote({ name: NAMES[i], email: `${NAMES[i]!.toLowerCase().replace(' ', '.')}@example.com`, phone: `(503) 555-01${20 + i}` }),
    });
    const port = await freePort();
    server = await startServer({ dir, env: { TRUST_PROXY: '127.0.0.1, ::1', PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, ...pictureClockEnv() } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    await addUser(server.databaseUrl, MARIA.email, MARIA.password, ['--role', 'staff']);
    await addUser(server.databaseUrl, SAM, 'mop and pail 2026', ['--role', 'staff']);
    // Who has what: four waiting with Maria (two given her by the owner this morning), two with Sam, one the owner's; two first contacted today.
    const db = new DatabaseSync(file);
    const hold = (i: number, who: string) => db.prepare('UPDATE leads SET owner = ? WHERE reference = ?').run(who, references[i]!);
    [0, 1, 2, 3].forEach((i) => hold(i, MARIA.email));
    [4, 5].forEach((i) => hold(i, SAM));
    hold(6, STAFF.email);
    const contactedAt = new Date(NOW - 15 * MINUTE).toISOString();
    for (const [i, who] of [
      [7, MARIA.email],
      [8, SAM],
    ] as const)
      db.prepare(
        "UPDATE leads SET owner = ?, status = 'contacted', status_by = ?, status_at = ?, first_contact_by = ?, first_contact_at = ? WHERE reference = ?",
      ).run(who, who, contactedAt, who, contactedAt, references[i]!);
    for (const i of [1, 3])
      db.prepare('INSERT INTO lead_given_marks (lead_id, account, given_by, given_at) SELECT id, ?, ?, ? FROM leads WHERE reference = ?').run(
        MARIA.email,
        STAFF.email,
        new Date(NOW - 10 * MINUTE).toISOString(),
        references[i]!,
      );
    db.close();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws the owner’s inbox on a phone with the team’s load, and Maria’s “Mine” with the leads given to her marked', async () => {
    const boss = await offlinePage(browser, server.url, { viewport: PHONE, extraHTTPHeaders: newClient() });
    await signInOnPage(boss.page, server.url);
    const load = boss.page.locator('details.team-load');
    expect(await load.locator('summary').innerText()).toMatch(/7 waiting, 3 late/);
    await load.locator('summary').click();
    const rows = (await load.locator('tbody tr').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
    expect(rows).toEqual([
      expect.stringMatching(/^You 1 .* 1 0$/),
      expect.stringMatching(/^maria@example.com 4 .* 2 1$/),
      expect.stringMatching(/^sam@example.com 2 .* 0 1$/),
    ]);
    // Scrolled to a whole pixel: the picture is the same on every run.
    await boss.page.evaluate(() => window.scrollTo(0, Math.round(document.querySelector('.team-load')!.getBoundingClientRect().top + window.scrollY - 12)));
    await saveGuidePicture(boss.page, 'office-team-load');
    await boss.context.close();

    const maria = await offlinePage(browser, server.url, { viewport: PHONE, extraHTTPHeaders: newClient() });
    await signInOnPage(maria.page, server.url, MARIA);
    await maria.page.goto(`${server.url}/office?owner=mine`);
    expect(await maria.page.locator('summary .given-mark').allInnerTexts()).toEqual([`Given to you by ${STAFF.email}`, `Given to you by ${STAFF.email}`]);
    await maria.page.evaluate(() => window.scrollTo(0, Math.round(document.querySelector('.list-order')!.getBoundingClientRect().top + window.scrollY)));
    await saveGuidePicture(maria.page, 'office-given-mark');
    await maria.context.close();
  });
});
