/**
 * The office's page, as its staff use it: in headless Chromium against the built server, on the
 * embedded store with the office's e-mail on. Without a session nothing shows; a wrong password is
 * refused in words and repeated tries are slowed; a lead sent through the form a moment earlier
 * is in the inbox with its tel: link and local time, takes a status, goes into the spreadsheet and
 * can be deleted on request after a preview; what a spam trap caught waits under suspected spam
 * and, released, gets its e-mail; changes from another site are refused; signing out ends the
 * session. On PostgreSQL, two instances share sessions.
 */
import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import AxeBuilder from '@axe-core/playwright';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, fillQuoteForm, launchChromium, offlinePage } from '../support/browser.ts';
import { exportLeads, freePort, startServer, type RunningServer } from '../support/server.ts';
import { createSchema, postgresAvailable } from '../support/services.ts';
import { smtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { addUser, openLead, STAFF } from '../support/office.ts';
import { timeOfDay } from '../../src/office/local-time.ts';
import { filledAtLeisure, sentAtOnce } from '../support/form-token.ts';

/** The leads table of the SQLite store, read straight from the file. */
function storedEmails(databaseUrl: string): string[] {
  const db = new DatabaseSync(databaseUrl.replace(/^file:/, ''), { readOnly: true });
  try {
    return (db.prepare('SELECT email_normalised FROM leads').all() as Array<{ email_normalised: string }>).map((r) => r.email_normalised);
  } finally {
    db.close();
  }
}

describe.skipIf(!chromiumAvailable())("the office's page in Chromium", () => {
  let server: RunningServer;
  let browser: Browser;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await smtpSink({ listening: true });
    const port = await freePort();
    server = await startServer({
      env: {
        TRUST_PROXY: '127.0.0.1, ::1',
        PORT: String(port),
        SITE_URL: `http://127.0.0.1:${port}`,
        SMTP_URL: sink.url,
        OFFICE_EMAIL: 'office@example.com',
        MAIL_FROM: 'Lead intake <leads@example.com>',
      },
    });
    expect(await addUser(server.databaseUrl, STAFF.email, STAFF.password)).toContain('Added office@example.com');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    await sink?.stop();
  });

  const visitor = (options: { width?: number; javaScript?: boolean } = {}) =>
    offlinePage(browser, server.url, { viewport: { width: options.width ?? 1024, height: 900 }, javaScriptEnabled: options.javaScript ?? true });

  async function signIn(page: Page, who = STAFF) {
    await page.goto(`${server.url}/office`);
    await page.getByLabel('E-mail address').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
  }

  /** Sends the quote form as a person does (JavaScript off: the plain POST), slow enough for the fill-time trap. */
  async function sendQuote(page: Page, who: { name: string; phone: string; email: string }, options: { fast?: boolean } = {}): Promise<string> {
    await page.goto(`${server.url}/quote`);
    await fillQuoteForm(page, who, { notes: 'Two cats; the side door is open.' });
    // The fill time set, not raced: past it as a person, or too soon as a spam program however slow the machine.
    await (options.fast ? sentAtOnce : filledAtLeisure)(page, server.databaseUrl);
    await page.getByRole('button', { name: 'Send my request' }).click();
    return (await page.locator('.reference').first().textContent())!.trim();
  }

  it('shows only the sign-in page, and no lead, at every office address without a session', async () => {
    const { context, page } = await visitor({ javaScript: false });
    const who = { name: 'Hidden Harper', phone: '(503) 555-0161', email: 'hidden.harper@example.com' };
    await sendQuote(page, who);
    for (const path of [
      '/office',
      '/office/spam',
      '/office/export',
      '/office/export.csv',
      '/office/delete?person=hidden.harper%40example.com',
      '/office/system',
      '/office/nowhere',
    ]) {
      const response = await page.goto(`${server.url}${path}`);
      expect(new URL(page.url()).pathname, path).toBe('/office/sign-in');
      expect(response!.headers()['cache-control']).toBe('no-store');
      expect(response!.headers()['x-robots-tag']).toContain('noindex');
      const text = await page.locator('body').innerText();
      expect(text).toContain('Sign in to the office page');
      expect(text).not.toContain('Hidden Harper');
      expect(text).not.toContain('555-0161');
    }
    // A change without a session changes nothing and leads to the sign-in page too (which says it was not kept: no session ever was).
    const post = await fetch(`${server.url}/office/status`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Origin: server.url, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'reference=Q-3333-33&status=done',
    });
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe('/office/sign-in?not-held');
    await context.close();
  });

  it('refuses a wrong password in words, and pauses an account after repeated wrong tries', async () => {
    await addUser(server.databaseUrl, 'typo@example.com', 'the right password 1');
    const { context, page } = await visitor();
    await page.goto(`${server.url}/office/sign-in`);
    for (let i = 0; i < 5; i++) {
      await page.getByLabel('E-mail address').fill('typo@example.com');
      await page.getByLabel('Password').fill(`wrong password ${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      expect(await page.getByRole('alert').innerText()).toContain('That e-mail address and password do not match an account');
    }
    // Now even the right password waits: the answer says so, and for how long.
    await page.getByLabel('E-mail address').fill('typo@example.com');
    await page.getByLabel('Password').fill('the right password 1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').innerText()).toMatch(/Too many sign-in attempts\. .* try again in 15 minutes\./);
    expect(new URL(page.url()).pathname).toBe('/office/sign-in');
    await context.close();
  });

  it('shows a lead sent a moment ago with its tel: link and local time, takes a status, exports it, and deletes it after a preview', async () => {
    const customer = await visitor({ javaScript: false });
    const who = { name: 'Ada Lovelace', phone: '(503) 555-0123', email: 'ada.lovelace@example.com' };
    const reference = await sendQuote(customer.page, who);
    await customer.context.close();

    const { context, page } = await visitor();
    await signIn(page);
    const card = await openLead(page, reference);
    expect(await card.getByRole('heading', { name: 'Ada Lovelace' }).count()).toBe(1);
    expect(await card.locator('.lead-open').getByRole('link', { name: 'Call (503) 555-0123', exact: true }).getAttribute('href')).toBe('tel:+15035550123');
    expect(await card.locator('.lead-open a[href="mailto:ada.lovelace@example.com"]').count()).toBe(1);
    expect(await card.innerText()).toContain('Two cats; the side door is open.');
    const shown = await card.locator('.row-facts time').getAttribute('datetime');
    const local = timeOfDay(new Date(shown!), 'America/Los_Angeles');
    expect(await card.locator('.row-facts time').innerText()).toContain(local);

    // Contacted: saved, said, and shown with who set it.
    await card.getByLabel('Status').selectOption('contacted');
    await card.getByRole('button', { name: 'Save' }).click();
    expect(await page.getByRole('status').innerText()).toContain(`Saved: ${reference} is now contacted.`);
    const saved = await openLead(page, reference);
    expect(await saved.getByLabel('Status').inputValue()).toBe('contacted');
    expect(await saved.innerText()).toContain('Contacted, set by office@example.com');
    // Search by part of the phone number finds it; by a name nobody has, nothing.
    await page.getByLabel('Name, e-mail, phone or reference').fill('555-0123');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    expect(await page.locator('li.lead').count()).toBe(1);
    // What was typed is in the box, never in the address.
    expect(page.url()).toMatch(/\/office\?search=[\w-]{16}$/);
    expect(await page.getByLabel('Name, e-mail, phone or reference').inputValue()).toBe('555-0123');
    await page.getByLabel('Name, e-mail, phone or reference').fill('Nobody Atall');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    expect(await page.getByText('No lead matches this search.').count()).toBe(1);

    // The spreadsheet: the lead's row, its time in the office's zone, named in the header.
    await page.getByRole('link', { name: 'Export' }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the spreadsheet' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const rows = parse(csv.slice(1), { columns: true }) as Array<Record<string, string>>;
    const row = rows.find((r) => r.Reference === reference)!;
    expect(row.Name).toBe('Ada Lovelace');
    expect(row['Received (America/Los_Angeles time)']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(rows.every((r) => r.Reference !== '')).toBe(true);

    // Deletion on request: the preview names whose leads, the confirmation removes them everywhere.
    await page.getByRole('link', { name: 'Delete on request' }).click();
    await page.getByLabel('E-mail address', { exact: true }).fill('ADA.LOVELACE@example.com');
    await page.getByRole('button', { name: 'Find their leads' }).click();
    expect(await page.getByRole('heading', { name: 'Found 1 lead with this e-mail address' }).count()).toBe(1);
    expect(await page.locator('.would-remove').innerText()).toContain('Ada Lovelace');
    expect(await page.locator('.would-remove').innerText()).toContain(reference);
    await page.getByRole('button', { name: 'Delete the ticked ones for good' }).click();
    expect(await page.getByRole('status').innerText()).toContain('Removed 1 lead.');
    await page.goto(`${server.url}/office`);
    await page.getByLabel('Name, e-mail, phone or reference').fill(reference);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    expect(await page.getByText('No lead matches this search.').count()).toBe(1);
    expect(storedEmails(server.databaseUrl)).not.toContain('ada.lovelace@example.com');
    expect((await exportLeads(server.databaseUrl)).map((l) => l.reference)).not.toContain(reference);
    // Nothing matched is said as such.
    await page.goto(`${server.url}/office/delete`);
    await page.getByLabel('E-mail address', { exact: true }).fill('ada.lovelace@example.com');
    await page.getByRole('button', { name: 'Find their leads' }).click();
    expect(await page.getByRole('status').innerText()).toContain('No lead has this e-mail address.');
    // The audit trail says who did what, without the customer's details.
    await page.goto(`${server.url}/office/system`);
    const activity = await page.locator('#activity + table').innerText();
    for (const what of [
      'Signed in.',
      `Changed a lead since deleted on request from New to Contacted.`,
      'Downloaded a spreadsheet of',
      'Deleted 1 lead on request, found by e-mail address.',
    ])
      expect(activity).toContain(what);
    expect(activity).not.toContain('ada.lovelace');
    expect(activity).not.toContain('Ada Lovelace');
    await context.close();
  });

  it('keeps what a spam trap caught under suspected spam, and a released one becomes a lead with its e-mail', async () => {
    const customer = await visitor({ javaScript: false });
    const who = { name: 'Quick Quentin', phone: '(360) 555-0144', email: 'quick.quentin@example.com' };
    const reference = await sendQuote(customer.page, who, { fast: true });
    await customer.context.close();
    expect(storedEmails(server.databaseUrl)).not.toContain('quick.quentin@example.com');

    const { context, page } = await visitor();
    await signIn(page);
    expect(await page.locator('li.lead', { hasText: reference }).count()).toBe(0);
    await page
      .getByRole('link', { name: /^Suspected spam/ })
      .first()
      .click();
    const caught = page.locator('li.lead', { hasText: reference });
    expect(await caught.innerText()).toContain('Quick Quentin');
    await caught.locator('summary').click();
    expect(await caught.innerText()).toContain('faster than a person types');
    const mailsBefore = sink.received.length;
    // The move is asked about first, in words; then made.
    await caught.getByRole('button', { name: 'Move to the inbox' }).click();
    await page.getByRole('button', { name: 'Yes, move it to the inbox' }).click();
    expect(await page.getByRole('status').innerText()).toContain(`Moved to the inbox as ${reference}.`);
    expect(await page.locator('li.lead', { hasText: reference }).count()).toBe(0);
    expect(storedEmails(server.databaseUrl)).toContain('quick.quentin@example.com');
    const mails = await sink.waitFor(mailsBefore + 1, 120_000);
    expect(mails.some((m) => (m.parsed.subject ?? '').includes(reference) || m.parsed.text?.includes(reference))).toBe(true);
    await page.getByRole('link', { name: 'Inbox' }).click();
    expect(await page.locator('li.lead', { hasText: reference }).count()).toBe(1);
    await context.close();
  });

  it('refuses a change sent from another site, and signing out ends the session for good', async () => {
    const { context, page } = await visitor();
    await signIn(page);
    const cookie = (await context.cookies()).find((c) => c.name === 'office_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    const forged = await fetch(`${server.url}/office/status`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Origin: 'https://attacker.example', Cookie: `office_session=${cookie.value}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'reference=Q-3333-33&status=done',
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('cache-control')).toBe('no-store');
    expect(await forged.text()).toContain('A change to the office can only be sent from this site, at http');

    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(await page.getByRole('status').innerText()).toContain('You are signed out.');
    const replayed = await fetch(`${server.url}/office`, { redirect: 'manual', headers: { Cookie: `office_session=${cookie.value}` } });
    expect(replayed.status).toBe(303);
    expect(replayed.headers.get('location')).toBe('/office/sign-in?next=%2Foffice');
    await context.close();
  });

  it('is accessible and fits a 360 px phone', async () => {
    const { context, page } = await visitor({ width: 360 });
    await page.goto(`${server.url}/office/sign-in`);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await signIn(page);
    // A lead with long words, so that the cards and the deletion preview are seen at their widest.
    const customer = await visitor({ javaScript: false });
    await sendQuote(customer.page, {
      name: 'Maria Lopez-Fernandez de la Cruz',
      phone: '(503) 555-0142',
      email: 'maria.lopez.fernandez.de.la.cruz@example.com',
    });
    await customer.context.close();
    for (const path of ['/office', '/office/spam', '/office/export', '/office/delete', '/office/system']) {
      await page.goto(`${server.url}${path}`);
      // The deletion page at its widest: the preview of a lead with long words.
      if (path === '/office/delete') {
        await page.getByLabel('E-mail address', { exact: true }).fill('maria.lopez.fernandez.de.la.cruz@example.com');
        await page.getByRole('button', { name: 'Find their leads' }).click();
        await page.getByRole('heading', { name: 'Found 1 lead with this e-mail address' }).waitFor();
      }
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => `${path}: ${v.id}`)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
    }
    await context.close();
  });

  it('is named by no public document', async () => {
    for (const path of [
      '/',
      '/quote',
      '/contact',
      '/developers',
      '/openapi.json',
      '/llms.txt',
      '/.well-known/api-catalog',
      '/robots.txt',
      '/api/v1',
      '/api-docs',
    ]) {
      const body = await (await fetch(`${server.url}${path}`)).text();
      expect(body, path).not.toMatch(/\/office/);
    }
  });
});

describe.skipIf(!postgresAvailable())('office sessions on PostgreSQL', () => {
  it('are shared by two instances: signed in on one, the other knows the session; signed out on one, neither does', async () => {
    const schema = await createSchema();
    const env = { DATABASE_URL: schema.url, TRUST_PROXY: '127.0.0.1, ::1' };
    const [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
    try {
      await addUser(schema.url, STAFF.email, STAFF.password);
      const signedIn = await fetch(`${a.url}/office/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
        body: new URLSearchParams(STAFF).toString(),
      });
      expect(signedIn.status).toBe(303);
      const cookie = signedIn.headers.get('set-cookie')!.split(';', 1)[0]!;
      const onB = await fetch(`${b.url}/office`, { redirect: 'manual', headers: { Cookie: cookie } });
      expect(onB.status).toBe(200);
      expect(await onB.text()).toContain('<h1>Inbox</h1>');
      const out = await fetch(`${b.url}/office/sign-out`, {
        method: 'POST',
        redirect: 'manual',
        headers: { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect(out.status).toBe(303);
      expect((await fetch(`${a.url}/office`, { redirect: 'manual', headers: { Cookie: cookie } })).status).toBe(303);
    } finally {
      await Promise.all([a.dispose(), b.dispose()]);
      await schema.drop();
    }
  });
});
