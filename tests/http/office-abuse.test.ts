/**
 * The office's page against abuse, in process (`testApp()` and its real pages, `tests/support/pages.ts`):
 * a sign-in never keeps a session id the browser brought; a search puts nothing typed into the
 * inbox's address; a note's text reaches no log; the export's spreadsheet runs nothing a customer
 * typed; a HEAD of the export or of `/office/held` uses nothing. (The change limit per person, the
 * held changes' bounds and the address's checked values: `office-guard.test.ts`.)
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS } from '../../src/leads/retention.ts';
import { hashPassword } from '../../src/office/passwords.ts';
import { sessionUser, signIn } from '../../src/office/session.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { quote } from '../support/fixtures.ts';
import { postJson } from '../support/in-process.ts';
import { pagesOf, type Pages } from '../support/pages.ts';

const STAFF = { email: 'office@example.com', password: 'mop and bucket 2026' } as const;
const SITE = 'http://localhost:4321';

describe("the office's page against abuse, in process", () => {
  let app: TestApp;
  let pages: Pages;
  let cookie: string;
  let reference: string;

  /** A form POST of the office's page, as its browser sends it (same origin), with the session `who`. */
  const post = (path: string, fields: Record<string, string>, who?: string) =>
    pages.fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: SITE, ...(who && { Cookie: who }) },
      body: new URLSearchParams(fields).toString(),
    });
  const signedIn = async (who: { email: string; password: string } = STAFF, planted?: string) => {
    const res = await post('/office/sign-in', who, planted && `office_session=${planted}`);
    expect(res.status, await res.clone().text()).toBe(303);
    return /^office_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
  };
  const audit = () => app.composition.office.audit.recent(100);
  const notesOf = async (ref: string) => {
    for await (const item of app.composition.office.inbox.exportInbox({})) if (item.lead.reference === ref) return item.notes;
    return undefined;
  };

  beforeAll(async () => {
    app = await testApp({ env: { SITE_URL: SITE } });
    pages = await pagesOf(app);
    const at = new Date();
    // The account as `leads user add` makes it (a cheaper hash: this is not a test of its cost).
    await app.store.saveUser(STAFF.email, await hashPassword(STAFF.password, { N: 2 ** 11, r: 8, p: 1 }), at, () => ({
      at,
      actor: 'test',
      action: 'account added',
      detail: `Added the account ${STAFF.email}.`,
    }));
    cookie = `office_session=${await signedIn()}`;
    reference = (await postJson(app, '/api/v1/leads', quote({ name: 'Janelle Searchable', email: 'janelle.searchable@example.com' }))).json.reference;
  });
  afterAll(async () => {
    await pages?.close();
    await app?.dispose();
  });

  it('never keeps a session id the browser brought to the sign-in', async () => {
    const planted = 'A'.repeat(43);
    const given = await signedIn(STAFF, planted);
    expect(given).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(given).not.toBe(planted);
    expect(await sessionUser(app.composition.office.sessions, planted)).toBeUndefined();
    expect(await sessionUser(app.composition.office.sessions, given)).toMatchObject({ email: STAFF.email });
  });

  it('keeps what was typed in a search out of the inbox address: the address names its handle alone', async () => {
    for (const typed of ['janelle.searchable@example.com', 'Janelle']) {
      const res = await post('/office/search', { list: 'inbox', q: typed, status: 'new' }, cookie);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toMatch(/^\/office\?search=[A-Za-z0-9_-]{16}&status=new$/);
    }
  });

  it("writes a note's text to no log and no audit line, and keeps the note with the lead", async () => {
    const text = 'Customer said the gate code is 4417, ask for Marguerite';
    const res = await post('/office/note', { reference, note: text, back: '/office' }, cookie);
    expect(res.status).toBe(303);
    expect(await notesOf(reference)).toEqual([expect.objectContaining({ by: STAFF.email, text })]);
    expect(app.logged()).not.toMatch(/4417|Marguerite/);
    expect(JSON.stringify(await audit())).not.toMatch(/4417|Marguerite/);
  });

  it('shows a change held through the sign-in to the GET a person opens, never using it for a HEAD or a prefetch', async () => {
    // A session of an hour ago, unused since: it has ended, and may hold a change for 15 minutes more.
    const office = app.composition.office;
    const deps = { accounts: office.accounts, sessions: office.sessions, audit: office.audit, limits: office.signInLimits };
    const old = await signIn(deps, { ...STAFF, client: '198.51.100.7' }, new Date(Date.now() - SESSION_IDLE_MS - 60_000));
    if (old.kind !== 'signed_in') throw new Error(old.kind);
    const held = await post('/office/status', { reference, status: 'done', back: '/office' }, `office_session=${old.token}`);
    expect(held.headers.get('location')).toBe('/office/sign-in?held');
    const handle = /office_held=([^;]+)/.exec(held.headers.get('set-cookie') ?? '')![1]!;
    const both = `${cookie}; office_held=${handle}`;
    const head = await pages.fetch('/office/held', { method: 'HEAD', headers: { Cookie: both } });
    expect(head.status).toBe(200);
    const prefetch = await pages.fetch('/office/held', { headers: { Cookie: both, 'Sec-Purpose': 'prefetch' } });
    expect(prefetch.status).toBe(503);
    const opened = await pages.fetch('/office/held', { headers: { Cookie: both } });
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain(`Mark ${reference} as`);
    expect(await (await pages.fetch('/office/held', { headers: { Cookie: both } })).text()).toContain('No change is waiting here for you');
  });

  it("puts a customer's text a spreadsheet would run as a formula into the export as text", async () => {
    const formula = '=HYPERLINK("http://evil.example.com","Click")';
    const sent = await postJson(app, '/api/v1/leads', quote({ name: 'Formula Fran', notes: formula }));
    expect(sent.status).toBe(201);
    const res = await pages.fetch('/office/export.csv', { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    const rows = parse(await res.text(), { bom: true, columns: true }) as Array<Record<string, string>>;
    const row = rows.find((r) => Object.values(r).includes('Formula Fran'))!;
    expect(row['Customer’s notes']).toBe(`'${formula}`);
    expect(Object.values(row).filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
  });

  it('answers a HEAD of the export with what the download is, reading and recording nothing, whatever reads its answer', async () => {
    const before = JSON.stringify(await audit());
    const head = await pages.fetch('/office/export.csv', { method: 'HEAD', headers: { Cookie: cookie } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(head.headers.get('content-disposition')).toMatch(/^attachment; filename="leads-/);
    expect(await head.text()).toBe('');
    // The route's own answer has no body to read: nothing runs, whatever layer reads what it is given.
    const own = await pages.pageAnswer('/office/export.csv', { method: 'HEAD', headers: { Cookie: cookie } });
    expect(own!.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(own!.body).toBeNull();
    expect(JSON.stringify(await audit())).toBe(before);
  });
});
