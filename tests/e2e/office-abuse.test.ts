/**
 * The office's page holds against abuse, on the built server: a search puts nothing typed into a
 * URL or a log line; a sign-in never keeps a session id the browser brought; each session's
 * changes are limited; suspected spam is paged, searched and shown as inert text, however much of
 * it a flood brings; a submission released without the form's page records no consent wording;
 * `/_image` is an unknown path; and a busy or unreachable store (SQLite, PostgreSQL) gives every
 * office page and action a 503 in words.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newReference } from '../../src/leads/reference.ts';
import type { SuspectedSpam } from '../../src/office/store.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { addUser, officePost, signedIn, STAFF } from '../support/office.ts';
import { seedLeads } from '../support/seed.ts';
import { exportLeads, freePort, startServer, type RunningServer } from '../support/server.ts';
import { createSchema, postgresAvailable, schemaUrl, POSTGRES_BASE, tcpProxy } from '../support/services.ts';

/** A colleague who makes many changes, from two sessions. */
const BUSY = { email: 'busy@example.com', password: 'sponge and bucket 2026' } as const;
const JANE = { name: 'Janelle Searchable', email: 'janelle.searchable@example.com', phone: '(503) 555-0161' };
const REAL = { name: 'Zoë Realperson', email: 'zoe.realperson@example.com', phone: '(503) 555-0162' };
/** What a program might put in a caught submission: a right-to-left override, a control character, a mailto with a hidden copy. */
const CRAFTED = { name: 'Evil\u202Egnp.exe Hacker\u0007', email: 'victim@example.com?bcc=thief@example.com', phone: '(503) 555-0163' };

function caught(i: number, body: Record<string, unknown>, at: Date): SuspectedSpam {
  return {
    id: `0b8a1f4e-${String(i).padStart(4, '0')}-4c55-9d7e-2a1b3c4d5e6f`,
    reference: newReference('quote'),
    formType: 'quote',
    receivedAt: at,
    reason: 'no valid form token',
    body,
    meta: { receivedVia: '/quote', channel: 'web-form', clientAddress: '198.51.100.8', userAgent: 'bot' },
  };
}

describe("the office's page against abuse, on SQLite", () => {
  let dir: string;
  let server: RunningServer;
  let cookie: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'office-abuse-'));
    const store = openSqliteStore(join(dir, 'leads.sqlite'));
    await seedLeads(store, 30);
    await seedLeads(store, 1, { body: () => quote(JANE) });
    // A real customer caught by mistake, then a flood of 300 after them, and one crafted submission.
    const t0 = Date.now() - 60 * 60 * 1000;
    await store.keepSpam(caught(9000, quote(REAL), new Date(t0)), { emailNormalised: REAL.email, phoneE164: '+15035550162' });
    for (let i = 0; i < 300; i++)
      await store.keepSpam(caught(i, { ...quote(), notes: 'x'.repeat(5_000) }, new Date(t0 + (i + 1) * 1000)), {
        emailNormalised: `flood${i}@example.com`,
        phoneE164: '+15035550100',
      });
    await store.keepSpam(caught(9001, quote(CRAFTED), new Date(t0 + 400_000)), { emailNormalised: CRAFTED.email, phoneE164: '+15035550163' });
    await store.close();
    const port = await freePort();
    server = await startServer({
      dir,
      env: { PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, TRUST_PROXY: '127.0.0.1, ::1', OFFICE_ACTIONS_PER_MINUTE: '12' },
    });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    cookie = await signedIn(server.url);
  });
  afterAll(async () => {
    await server?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string, who = cookie) => fetch(`${server.url}${path}`, { headers: { Cookie: who }, redirect: 'manual' });

  it('searches by e-mail and by name without what was typed in any URL, redirect or log line', async () => {
    for (const typed of [JANE.email, JANE.name.split(' ')[0]!]) {
      const posted = await officePost(server.url, '/office/search', { list: 'inbox', q: typed, status: 'new' }, cookie);
      expect(posted.status).toBe(303);
      const location = posted.headers.get('location')!;
      expect(location).toMatch(/^\/office\?search=[A-Za-z0-9_-]{16}&status=new$/);
      const page = await (await get(location)).text();
      expect(page).toContain(JANE.name);
      expect(page).not.toContain('Jane Doe');
      // Every link and form target on the page names the handle, never the text.
      for (const [, target] of page.matchAll(/(?:href|action|value)="([^"]*\?[^"]*)"/g)) expect(target).not.toMatch(/janelle/i);
    }
    // Another session cannot use this session's handle.
    const posted = await officePost(server.url, '/office/search', { list: 'inbox', q: JANE.email }, cookie);
    const other = await signedIn(server.url, STAFF, newClient());
    const theirs = await (await get(posted.headers.get('location')!, other)).text();
    expect(theirs).toContain('That search is no longer kept');
    expect(theirs).not.toMatch(/value="janelle/i);
    // An address carrying a search the old way finds nothing by it, and its query is not logged.
    await get(`/office?q=${encodeURIComponent(JANE.email)}`);
    const logged = server.logs.join('\n');
    expect(logged).not.toMatch(/janelle/i);
    expect(logged).not.toMatch(/"path":"[^"]*\?/);
    expect(logged).not.toMatch(/search=|q=/);
  });

  it('never keeps a session id the browser brought to the sign-in', async () => {
    const planted = 'A'.repeat(43);
    const res = await officePost(server.url, '/office/sign-in', STAFF, `office_session=${planted}`, newClient());
    expect(res.status).toBe(303);
    const given = /office_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
    expect(given).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(given).not.toBe(planted);
    expect((await get('/office', `office_session=${planted}`)).status).toBe(303);
    expect((await get('/office', `office_session=${given}`)).status).toBe(200);
  });

  it("limits each person's changes a minute, whatever their sessions, in words, changing nothing past the limit", async () => {
    await addUser(server.databaseUrl, BUSY.email, BUSY.password, ['--role', 'staff']);
    // Signing in again gives no fresh allowance: the limit is the account's.
    const [busy, again] = [await signedIn(server.url, BUSY, newClient()), await signedIn(server.url, BUSY, newClient())];
    const answers = [];
    for (let i = 0; i < 13; i++)
      answers.push(await officePost(server.url, '/office/status', { reference: 'Q-NONE-33', status: 'done', back: '/office' }, i < 6 ? busy : again));
    expect(answers.slice(0, 12).map((r) => r.status)).toEqual(Array(12).fill(404));
    const refused = answers[12]!;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(refused.headers.get('content-security-policy')).toBeTruthy();
    expect(await refused.text()).toMatch(/more changes in a minute than the office page takes \(12\)\. Nothing was changed/);
    // Reading goes on; another person's changes are their own.
    expect((await get('/office', busy)).status).toBe(200);
    expect((await officePost(server.url, '/office/search', { list: 'inbox', q: '' }, cookie)).status).toBe(303);
  });

  it('pages suspected spam, finds a real customer under a flood, and shows what was caught as inert text', async () => {
    const first = await (await get('/office/spam')).text();
    expect(first.match(/<li class="lead compact caught"/g)).toHaveLength(25);
    expect(first.length).toBeLessThan(300_000);
    // The crafted submission, newest: its characters shown by code point, its address not a link.
    expect(first).toContain('Evil[U+202E]gnp.exe Hacker[U+0007]');
    expect(first).not.toMatch(/[\u202E\u0007]/);
    expect(first).not.toContain('href="mailto:');
    expect(first).not.toContain('href="tel:');
    expect(first).toContain('Older</a>');
    const older = await (await get('/office/spam?page=12')).text();
    expect(older).toContain(REAL.name);
    const posted = await officePost(server.url, '/office/search', { list: 'spam', q: 'zoe.realperson' }, cookie);
    const location = posted.headers.get('location')!;
    expect(location).toMatch(/^\/office\/spam\?search=[A-Za-z0-9_-]{16}$/);
    const found = await (await get(location)).text();
    expect(found.match(/<li class="lead compact caught"/g)).toHaveLength(1);
    expect(found).toContain(REAL.name);
  });

  it("keeps a caught submission's answers no longer than the form takes, and releases one sent without the form's page with no consent wording", async () => {
    const sent = await fetch(`${server.url}/_actions/submitQuote`, {
      method: 'POST',
      headers: { Origin: server.url, 'Content-Type': 'application/x-www-form-urlencoded', ...newClient() },
      body: new URLSearchParams({
        ...(quote({ name: 'Tokenless Tess' }) as Record<string, string>),
        notes: 'n'.repeat(20_000),
        communicationsConsent: 'on',
      }).toString(),
    });
    expect(sent.status).toBe(200);
    const posted = await officePost(server.url, '/office/search', { list: 'spam', q: 'Tokenless' }, cookie);
    const page = await (await get(posted.headers.get('location')!)).text();
    expect(page).toContain('Tokenless Tess');
    expect(page).toContain('n'.repeat(5_000));
    expect(page).not.toContain('n'.repeat(5_001));
    const id = /name="id" value="([^"]+)"/.exec(page)![1]!;
    const released = await officePost(server.url, posted.headers.get('location')!, { id, do: 'release' }, cookie);
    expect(await released.text()).toContain('there is no record of the consent wording the sender saw');
    const lead = (await exportLeads(server.databaseUrl)).find((l) => (l.fields as Record<string, string>).name === 'Tokenless Tess')!;
    expect(lead.consent).toMatchObject({ channel: 'web-form', disclosureVersion: null });
    expect(lead.disclosure).toBeUndefined();
  });

  it('answers /_image as it answers any unknown path, and logs no error', async () => {
    const lines = server.logs.length;
    const image = await fetch(`${server.url}/_image?href=/favicon.svg&w=abc`);
    expect(image.status).toBe(404);
    expect(image.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await image.text()).length).toBeGreaterThan(100);
    await expect.poll(() => server.logs.slice(lines).some((l) => (JSON.parse(l) as { status?: number }).status === 404)).toBe(true);
    const since = server.logs.slice(lines).map((l) => JSON.parse(l) as { level: number; status?: number });
    expect(since.filter((l) => l.level >= 50)).toEqual([]);
    expect(since.filter((l) => l.status === 404)).toHaveLength(1);
  });

  it('answers every office page and action with a 503 in words while the store is busy, with one warning each in the log', async () => {
    const lock = new DatabaseSync(join(dir, 'leads.sqlite'));
    lock.exec('BEGIN IMMEDIATE');
    const lines = server.logs.length;
    try {
      const answers = [
        await get('/office'),
        await get('/office/spam'),
        await officePost(server.url, '/office/status', { reference: 'Q-NONE-33', status: 'done', back: '/office' }, cookie),
        await get('/office/sign-in'),
      ];
      for (const res of answers.slice(0, 3)) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('30');
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
        expect(await res.text()).toMatch(/^The inbox is busy or cannot be reached just now\. Nothing was changed\. Try again in a minute/);
      }
    } finally {
      lock.exec('ROLLBACK');
      lock.close();
    }
    const busy = 'office page: the lead store is busy or cannot be reached';
    await expect.poll(() => server.logs.slice(lines).filter((l) => l.includes(busy)).length).toBeGreaterThanOrEqual(3);
    const since = server.logs.slice(lines).map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(since.filter((l) => l.msg === busy).length).toBeGreaterThanOrEqual(3);
    expect(since.filter((l) => l.level >= 40 && l.msg !== 'request' && l.msg !== 'office page: the lead store is busy or cannot be reached')).toEqual([]);
    expect((await get('/office')).status).toBe(200);
  });
});

describe.skipIf(!postgresAvailable())("the office's page while PostgreSQL cannot be reached", () => {
  let server: RunningServer;
  let schema: Awaited<ReturnType<typeof createSchema>>;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  beforeAll(async () => {
    schema = await createSchema();
    proxy = await tcpProxy(5432);
    const port = await freePort();
    const url = schemaUrl(POSTGRES_BASE.replace(':5432', `:${proxy.port}`), schema.name);
    server = await startServer({ env: { DATABASE_URL: url, PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
  });
  afterAll(async () => {
    await server?.dispose();
    await proxy?.close();
    await schema?.drop();
  });

  it('answers a page and an action with a 503 in words, and the office again once it is back', async () => {
    const cookie = await signedIn(server.url);
    await proxy.pause();
    try {
      for (const res of [
        await fetch(`${server.url}/office`, { headers: { Cookie: cookie }, redirect: 'manual' }),
        await officePost(server.url, '/office/search', { list: 'inbox', q: 'x' }, cookie),
      ]) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('30');
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(await res.text()).toMatch(/^The inbox is busy or cannot be reached just now/);
      }
    } finally {
      await proxy.resume();
    }
    await expect
      .poll(async () => (await fetch(`${server.url}/office`, { headers: { Cookie: cookie }, redirect: 'manual' })).status, { timeout: 60_000 })
      .toBe(200);
  });
});
