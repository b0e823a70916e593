/**
 * The office's page against abuse, in process (`testApp()` and its real pages, `tests/support/pages.ts`):
 * a sign-in never keeps a session id the browser brought; a search puts nothing typed into the
 * inbox's address; a note's text reaches no log; the export's spreadsheet runs nothing a customer
 * typed; a HEAD of the export or of `/office/held` uses nothing; staff give no lead to a real
 * colleague; every action under `src/pages/office/` (read from the files, so that one added
 * without its case fails here) refuses a POST from another site. And what the inbox shows comes
 * from the store: a lead's answer-by as stored, never worked out again from today's content; the
 * same person by phone alone; a note as typed. (The change limit per person, the
 * held changes' bounds and the address's checked values: `office-guard.test.ts`.)
 */
import { parse } from 'csv-parse/sync';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS } from '../../src/leads/retention.ts';
import { hashPassword } from '../../src/office/passwords.ts';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { shortTime } from '../../src/office/local-time.ts';
import { sessionUser, signIn, tokenHash } from '../../src/office/session.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { newClient, promise, quote, serviceArea } from '../support/fixtures.ts';
import { postJson } from '../support/in-process.ts';
import { pagesOf, type Pages } from '../support/pages.ts';
import { ROOT } from '../support/server.ts';

const STAFF = { email: 'office@example.com', password: 'mop and bucket 2026' } as const;
const SITE = 'http://localhost:4321';
const ELSEWHERE = 'https://elsewhere.example';
const HELPER = 'helper@example.com';
const COLLEAGUE = 'colleague@example.com';
const DAY = 86_400_000;

describe("the office's page against abuse, in process", () => {
  let app: TestApp;
  let pages: Pages;
  let cookie: string;
  let reference: string;

  let hash: string;

  /** A form POST of the office's page, as its browser sends it (same origin, unless `origin` says another), with the session `who`. */
  const post = (path: string, fields: Record<string, string>, who?: string, origin = SITE) =>
    pages.fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin, ...(who && { Cookie: who }) },
      body: new URLSearchParams(fields).toString(),
    });
  const signedIn = async (who: { email: string; password: string } = STAFF, planted?: string) => {
    const res = await post('/office/sign-in', who, planted && `office_session=${planted}`);
    expect(res.status, await res.clone().text()).toBe(303);
    return /^office_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
  };
  const audit = () => app.composition.office.audit.recent(100);
  /** A session of `email`, started in the store as a sign-in starts it (with the password `hash`): its `Cookie` value. */
  async function session(email: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const signedInLine = { at: new Date(), actor: email, action: 'signed in', detail: 'Signed in.' } as const;
    if (!(await app.store.startSession(tokenHash(token), email, hash, new Date(), signedInLine))) throw new Error('no session');
    return `office_session=${token}`;
  }
  /** A lead taken in through the API, from a client of its own: its reference. */
  const sent = async (overrides: Record<string, unknown>) => {
    const reply = await postJson(app, '/api/v1/leads', quote(overrides), newClient());
    expect(reply.status).toBe(201);
    return reply.json.reference as string;
  };
  const inboxItem = async (ref: string) => (await app.store.inbox({ reference: ref, limit: 1, offset: 0 }))[0]!;
  /** The inbox's row of `ref` (up to the next lead's), as the page shows it to `who`. */
  const row = async (who: string, ref: string) => {
    const res = await pages.fetch(`/office?lead=${ref}`, { headers: { Cookie: who } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const at = html.indexOf(`id="lead-${ref}"`);
    expect(at, `the row of ${ref}`).toBeGreaterThan(0);
    const next = html.indexOf('<li class="lead compact', at);
    return html.slice(at, next < 0 ? undefined : next);
  };
  const notesOf = async (ref: string) => {
    for await (const item of app.composition.office.inbox.exportInbox({})) if (item.lead.reference === ref) return item.notes;
    return undefined;
  };

  beforeAll(async () => {
    app = await testApp({ env: { SITE_URL: SITE } });
    pages = await pagesOf(app);
    const at = new Date();
    // The account as `leads user add` makes it (a cheaper hash: this is not a test of its cost), an owner; two of staff beside it.
    hash = await hashPassword(STAFF.password, { N: 2 ** 11, r: 8, p: 1 });
    await app.store.saveUser(STAFF.email, hash, at, () => ({
      at,
      actor: 'test',
      action: 'account added',
      detail: `Added the account ${STAFF.email}.`,
    }));
    for (const email of [HELPER, COLLEAGUE]) await app.store.saveUser(email, hash, at, undefined, 'staff');
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

  it('shows the answer-by instant stored with a lead, not one worked out again from today’s content; the same person by phone alone; a note as typed', async () => {
    // A lead acknowledged with an answer-by the content as it stands would never give (a month ahead, at 23:17 UTC).
    const v = validateLead(quote({ name: 'Ada Promised', email: 'ada.promised@example.com', phone: '(503) 555-0161' }));
    if (!v.ok) throw new Error('invalid');
    const now = new Date();
    const promised = new Date(Math.floor((now.getTime() + 30 * DAY) / DAY) * DAY + 23 * 3_600_000 + 17 * 60_000);
    const meta = { receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '198.51.100.7', userAgent: 'test', now };
    const stored = await app.store.submit({ ...toLeadRecord(v.lead, meta, serviceArea()), answerBy: promised.toISOString() }, undefined);
    if (stored.kind !== 'created') throw new Error(stored.kind);
    const ada = stored.receipt.reference;
    // The same phone, another e-mail address: the same person.
    const again = await sent({ name: 'Ada P.', email: 'ada.elsewhere@example.com', phone: '503.555.0161' });
    const family = 'Called: a family of 👩\u200d👩\u200d👧, gate on the left';
    expect((await post('/office/note', { reference: ada, note: family, back: '/office' }, cookie)).status).toBe(303);

    const html = await row(cookie, ada);
    expect(html).toContain(`<time datetime="${promised.toISOString()}">`);
    expect(html).toContain(`The customer was told to expect an answer by ${shortTime(promised, promise().timeZone)}.`);
    expect(html).toContain('2 from this person');
    expect(html).toContain(again);
    expect(html).toContain(family);
    expect(await row(cookie, again)).toContain('2 from this person');
  });

  it('sends a light row’s whole part from /office/lead, as the lead shown alone has it; a reference that is not one, or is gone, in words', async () => {
    const ref = await sent({ name: 'Paula Part', email: 'paula.part@example.com' });
    const res = await pages.fetch(`/office/lead?lead=${ref}&back=${encodeURIComponent('/office?view=all')}`, { headers: { Cookie: cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const part = await res.text();
    // A row alone, with its whole part (the form comes back to the view it was opened from), and no page around it.
    expect(part).not.toContain('<html');
    expect(part).toContain(`id="lead-${ref}"`);
    expect(part).toContain('name="back" value="/office?view=all"');
    expect(part).toContain('paula.part@example.com');
    // The inbox's row of the lead shown alone holds the same part.
    expect(await row(cookie, ref)).toContain('paula.part@example.com');
    // A light row in the list carries its line and one link, no part.
    const list = await (await pages.fetch('/office?view=all', { headers: { Cookie: cookie } })).text();
    const light = list.slice(list.indexOf(`id="lead-${ref}"`), list.indexOf('</li>', list.indexOf(`id="lead-${ref}"`)));
    // (The link keeps the list it is in, issue 55 item 5; the row's one-tap links to the customer are beside its line, item 2.)
    expect(light).toContain(`href="/office?view=all&amp;lead=${ref}#lead-${ref}"`);
    expect(light).not.toContain('class="lead-fields"');
    for (const [asked, status, words] of [
      ['/office/lead?lead=not-a-reference', 400, 'does not name a lead'],
      ['/office/lead', 400, 'does not name a lead'],
      [`/office/lead?lead=${ref.slice(0, -2)}${ref.endsWith('33') ? '44' : '33'}`, 404, 'no lead with this reference'],
    ] as const) {
      const answer = await pages.fetch(asked, { headers: { Cookie: cookie } });
      expect(answer.status, asked).toBe(status);
      expect(await answer.text()).toContain(words);
    }
    // Without a session, the sign-in, and no lead.
    const outside = await pages.fetch(`/office/lead?lead=${ref}`, { redirect: 'manual' });
    expect(outside.status).toBeGreaterThanOrEqual(300);
    expect(await outside.text()).not.toContain('paula.part@example.com');
  });

  it('refuses staff giving a lead to a real colleague, by its id, nothing of the form saved; an owner may', async () => {
    const reference = await sent({ name: 'Bea Given', email: 'bea.given@example.com', phone: '(503) 555-0162' });
    const colleague = (await app.store.listUsers()).find((u) => u.email === COLLEAGUE)!.id;
    const helper = await session(HELPER);
    const form = { reference, owner: colleague, 'was-owner': 'nobody', status: 'contacted', 'was-status': 'new', note: 'For you.', back: '/office' };
    const refused = await post('/office/work', form, helper);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Staff take leads for themselves');
    // Nor a lead of their own.
    expect((await post('/office/take', { reference, take: 'yes', back: '/office' }, helper)).status).toBe(303);
    expect((await post('/office/work', { ...form, 'was-owner': 'me' }, helper)).status).toBe(403);
    expect(await inboxItem(reference)).toMatchObject({ owner: HELPER, status: 'new', notes: [] });
    // An owner gives it.
    expect((await post('/office/work', { ...form, 'was-owner': 'me' }, cookie)).status).toBe(303);
    expect(await inboxItem(reference)).toMatchObject({ owner: COLLEAGUE, status: 'contacted' });
  });

  it('refuses a POST from another site to every action of the office, sign-in and sign-out included, and changes nothing', async () => {
    const reference = await sent({ name: 'Cy Elsewhere', email: 'cy.elsewhere@example.com', phone: '(503) 555-0163' });
    const { id } = (await inboxItem(reference)).lead;
    /** Each action's form, as its page sends it: what it would change, were it made. */
    const CASES: Record<string, Record<string, string>> = {
      '/office/sign-in': { email: STAFF.email, password: STAFF.password },
      '/office/sign-out': {},
      '/office/note': { reference, note: 'From elsewhere.', back: '/office' },
      '/office/status': { reference, status: 'done', back: '/office' },
      '/office/take': { reference, take: 'yes', back: '/office' },
      '/office/work': { reference, status: 'done', 'was-status': 'new', owner: 'me', 'was-owner': 'nobody', note: 'From elsewhere.', back: '/office' },
      '/office/attempt': { reference, way: 'call', back: '/office' },
      '/office/search': { list: 'inbox', q: 'Cy Elsewhere' },
      '/office/spam': { id: 'nothing-caught', do: 'not-a-customer' },
      '/office/delete': { person: 'cy.elsewhere@example.com', confirm: 'yes', lead: id },
    };
    // Every route under src/pages/office/ that takes a POST: an endpoint's POST, or a page that reads one.
    const dir = join(ROOT, 'src/pages/office');
    const actions = readdirSync(dir)
      .filter((file) => {
        const source = readFileSync(join(dir, file), 'utf8');
        return file.endsWith('.ts') ? /export (const|async function) POST\b/.test(source) : /Astro\.request\.method === 'POST'/.test(source);
      })
      .map((file) => `/office/${file.replace(/\.(ts|astro)$/, '')}`.replace(/\/index$/, ''));
    expect(Object.keys(CASES).sort(), 'each POST handler under src/pages/office/ has its case here').toEqual(actions.sort());

    const trail = async () => JSON.stringify(await app.store.recent(1000));
    const before = { trail: await trail(), lead: await inboxItem(reference) };
    for (const [path, fields] of Object.entries(CASES)) {
      const res = await post(path, fields, path === '/office/sign-in' ? undefined : cookie, ELSEWHERE);
      expect(res.status, path).toBe(403);
      expect(await res.text(), path).toContain(`A change to the office can only be sent from this site, at ${SITE}. Nothing was changed.`);
      expect(res.headers.get('set-cookie'), path).toBeNull();
    }
    expect(await trail()).toBe(before.trail);
    expect(await inboxItem(reference)).toEqual(before.lead);
    expect(await sessionUser(app.store, cookie.slice('office_session='.length))).toMatchObject({ email: STAFF.email });
  });
});
