/**
 * The office's guard in process, through the front door the server uses (`answerOnDemand`), on a
 * real SQLite store: what a session that ended may still hold, and for how long; the change limit
 * counted per person, whatever the number of sessions; the inbox's address holding only checked
 * filter values; and a held change used by a GET alone (never a HEAD or a prefetch). The office's
 * pages are Astro pages: where a test needs one, a stand-in does what the page does with its powers
 * (the search, a plain `.ts` route, is the real one).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { APIContext } from 'astro';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerOnDemand } from '../../src/http/front-door.ts';
import type { ApiContext } from '../../src/http/context.ts';
import { SESSION_IDLE_MS } from '../../src/leads/retention.ts';
import { HELD_CHANGE_MS, takeHeldChange } from '../../src/office/held-change.ts';
import { sessionUser, tokenHash } from '../../src/office/session.ts';
import { POST as postSearch } from '../../src/pages/office/search.ts';
import { POST as postSignOut } from '../../src/pages/office/sign-out.ts';
import { testApp, type TestApp } from '../support/app.ts';

const HASH = 'scrypt$1$1$1$AA==$AA==';
const MARIA = 'maria@example.com';
const COLLEAGUE = 'colleague@example.com';
const MINUTE = 60_000;

/** What a page does once the guard lets the request through. */
type Page = (locals: ApiContext, request: Request) => Promise<Response>;
/** A change's page: it answers, having changed nothing here (the guard is what is tested). */
const changed: Page = async () => new Response(null, { status: 204 });
/** What `/office/held` does with its powers: takes the held change of the browser's cookie for the signed-in account. */
const heldPage: Page = async (locals, request) => {
  const change = await takeHeldChange(locals.office!.powers.sessions, request.headers.get('cookie'), locals.office!.user);
  return new Response(change ? `Your change: ${change.path}` : 'No change is waiting here for you.', { headers: { 'Content-Type': 'text/html' } });
};
/** The search's own route. */
const searchPage: Page = async (locals, request) => postSearch({ locals, request } as unknown as APIContext);
/** The sign-out's own route. */
const signOutPage: Page = async (locals, request) => postSignOut({ locals, request } as unknown as APIContext);

let app: TestApp;
afterEach(() => app?.dispose());

async function open(env: Record<string, string> = {}) {
  app = await testApp({ env });
  const at = new Date(Date.now() - 2 * SESSION_IDLE_MS);
  for (const email of [MARIA, COLLEAGUE, 'third@example.com']) await app.store.saveUser(email, HASH, at);
}

/** A session of `email` signed in at `at` and unused since: its cookie (ended when `at` is more than an hour ago). */
async function session(email: string, at = new Date()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const audit = { at, actor: email, action: 'signed in', detail: 'Signed in.' } as const;
  if (!(await app.store.startSession(tokenHash(token), email, HASH, at, audit))) throw new Error('no session');
  return `office_session=${token}`;
}

/** A session of `email` that ended (an hour without use) `endedAgo` ms ago. */
const ended = (email: string, endedAgo = MINUTE) => session(email, new Date(Date.now() - SESSION_IDLE_MS - endedAgo));

/** Answers a request under `/office` as the server does, with `page` standing for the page. */
function office(path: string, init: RequestInit & { cookie?: string }, page: Page = changed): Promise<Response> {
  const { cookie, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (cookie) headers.set('Cookie', cookie);
  const request = new Request(new URL(path, app.services.config.siteUrl), { ...rest, headers });
  const url = new URL(request.url);
  const locals: ApiContext = { services: app.services, request: { id: randomUUID(), clientAddress: '127.0.0.1', host: url.host } };
  return answerOnDemand(request, url, locals, app.composition.office, () => page(locals, request), { requestIdSent: false });
}

/** A form POST of the office's page, from its own site. */
const post = (path: string, fields: Record<string, string>, cookie?: string, page?: Page) =>
  office(
    path,
    {
      method: 'POST',
      cookie,
      headers: { Origin: app.services.config.siteUrl, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    },
    page,
  );

const note = (i: number) => ({ reference: 'Q-P7RH-Q4', note: `Called, no answer (${i}).`, back: '/office' });
const heldCookieOf = (res: Response) => res.headers.get('set-cookie')?.split(';', 1)[0];

describe('changes held after a session ended', () => {
  beforeEach(() => open());

  it('lets no one ended session fill the office: a colleague whose session ends keeps their change', async () => {
    const flooding = await ended(MARIA);
    const answers: Response[] = [];
    for (let i = 0; i < 130; i++) answers.push(await post('/office/note', note(i), flooding));
    // Holding a change counts against the change limit like any change: 120 a minute, then refused in words (ten past it show that).
    const held = answers.filter((r) => r.headers.get('location') === '/office/sign-in?held');
    expect(held).toHaveLength(120);
    expect(answers.slice(120).every((r) => r.status === 429)).toBe(true);
    expect(await answers[129]!.text()).toMatch(/more changes in a minute than the office page takes \(120\)\. Nothing was changed/);
    expect(answers[129]!.headers.get('set-cookie')).toBeNull();

    const colleague = await ended(COLLEAGUE);
    const theirs = await post('/office/status', { reference: 'Q-P7RH-Q4', status: 'done' }, colleague);
    expect(theirs.headers.get('location')).toBe('/office/sign-in?held');
    const again = `${await session(COLLEAGUE)}; ${heldCookieOf(theirs)}`;
    expect(await (await office('/office/held', { cookie: again }, heldPage)).text()).toBe('Your change: /office/status');

    // One account holds at most 20: the oldest are forgotten first.
    const mine = await session(MARIA);
    const shown = [];
    for (const answer of held) shown.push(await (await office('/office/held', { cookie: `${mine}; ${heldCookieOf(answer)}` }, heldPage)).text());
    expect(shown.slice(0, 100).every((text) => text.startsWith('No change is waiting'))).toBe(true);
    expect(shown.slice(100)).toEqual(Array(20).fill('Your change: /office/note'));
  });

  it('holds a change for 15 minutes after its session ended, and none later', async () => {
    const lately = await ended(MARIA, HELD_CHANGE_MS - MINUTE);
    expect((await post('/office/note', note(1), lately)).headers.get('location')).toBe('/office/sign-in?held');
    const long = await ended(COLLEAGUE, HELD_CHANGE_MS + MINUTE);
    const refused = await post('/office/note', note(2), long);
    expect(refused.headers.get('location')).toBe('/office/sign-in?not-held');
    expect(refused.headers.get('set-cookie')).toBeNull();
    // Twelve hours after signing in, a session ends however busy it was: the 15 minutes count from then.
    const old = await session('third@example.com', new Date(Date.now() - 12 * 60 * MINUTE - HELD_CHANGE_MS - MINUTE));
    expect((await post('/office/note', note(3), old)).headers.get('location')).toBe('/office/sign-in?not-held');
  });
});

describe("the office's change limit", () => {
  beforeEach(() => open({ OFFICE_ACTIONS_PER_MINUTE: '3' }));

  it('counts per person, whatever the number of sessions, and says in words how long to wait', async () => {
    const first = await session(MARIA);
    for (let i = 0; i < 3; i++) expect((await post('/office/note', note(i), first)).status).toBe(204);
    // Signing in again gives no fresh allowance.
    const second = await session(MARIA);
    const refused = await post('/office/note', note(4), second);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    // The refusal is a page of the office (tests/http/office-refusals.test.ts), saying it in these words.
    expect(await refused.text()).toContain(
      `That is more changes in a minute than the office page takes (3). Nothing was changed. Wait ${wait} second${wait === 1 ? '' : 's'}, then try again.`,
    );
    // A colleague's changes are their own.
    expect((await post('/office/note', note(5), await session(COLLEAGUE))).status).toBe(204);
  });

  it('lets a person sign out whatever the change limit says: the session ends and its cookie goes, spending nothing', async () => {
    const first = await session(MARIA);
    for (let i = 0; i < 3; i++) expect((await post('/office/note', note(i), first)).status).toBe(204);
    // Another session of the same account, on a shared computer: its changes are refused now, its sign-out is not.
    const shared = await session(MARIA);
    expect((await post('/office/note', note(3), shared)).status).toBe(429);
    const out = await post('/office/sign-out', {}, shared, signOutPage);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/office/sign-in?signed-out');
    expect(out.headers.get('set-cookie')).toMatch(/^office_session=; Max-Age=0; Path=\/office;/);
    expect(await sessionUser(app.store, shared.slice('office_session='.length))).toBeUndefined();
    expect((await app.store.recent(1))[0]).toMatchObject({ actor: MARIA, action: 'signed out' });
    // The other session is untouched; and a sign-out spends none of the account's changes.
    expect(await sessionUser(app.store, first.slice('office_session='.length))).toMatchObject({ email: MARIA });
    expect((await post('/office/sign-out', {}, await session(COLLEAGUE), signOutPage)).status).toBe(303);
    const colleague = await session(COLLEAGUE);
    for (let i = 0; i < 3; i++) expect((await post('/office/note', note(i), colleague)).status).toBe(204);
    // A session that has ended already: its cookie goes all the same.
    const gone = await post('/office/sign-out', {}, await ended(COLLEAGUE), signOutPage);
    expect(gone.status).toBe(303);
    expect(gone.headers.get('set-cookie')).toMatch(/^office_session=; Max-Age=0;/);
  });

  it('counts a held change as a change of its account', async () => {
    const gone = await ended(MARIA);
    for (let i = 0; i < 3; i++) expect((await post('/office/note', note(i), gone)).headers.get('location')).toBe('/office/sign-in?held');
    expect((await post('/office/note', note(3), gone)).status).toBe(429);
    expect((await post('/office/note', note(4), await session(MARIA))).status).toBe(429);
  });
});

describe("the inbox's address", () => {
  beforeEach(() => open());

  it('carries only checked filter values from the search form, and says what was left out', async () => {
    const cookie = await session(MARIA);
    const posted = await post(
      '/office/search',
      { list: 'inbox', q: '', form: 'quote', status: 'new', owner: 'Maria Lopez', since: 'Maria Lopez', until: '11/30/2026', zip: '5035550142', visit: 'x' },
      cookie,
      searchPage,
    );
    expect(posted.status).toBe(303);
    const location = posted.headers.get('location')!;
    expect(location).not.toMatch(/503|555|0142|maria|lopez/i);
    const kept = new URL(location, 'http://office').searchParams;
    expect(Object.fromEntries([...kept].filter(([name]) => name !== 'dropped'))).toEqual({ form: 'quote', status: 'new', until: '2026-11-30' });
    expect(kept.get('dropped')!.split(' ').sort()).toEqual(['owner', 'since', 'visit', 'zip']);
    // Good values go through as they were.
    const good = await post('/office/search', { list: 'inbox', q: '', zip: '97201-1234', since: '2026-11-01', owner: 'nobody' }, cookie, searchPage);
    expect(good.headers.get('location')).toBe('/office?owner=nobody&since=2026-11-01&zip=97201-1234');
  });

  it('sends an address with an unchecked value to the same view without it, before any page reads it', async () => {
    const cookie = await session(MARIA);
    const page = async () => new Response('the inbox', { headers: { 'Content-Type': 'text/html' } });
    const typo = await office('/office?zip=5035550142&status=new&since=Maria+Lopez&until=2026-11-30&owner=maria%40example.com', { cookie }, page);
    expect(typo.status).toBe(303);
    const location = typo.headers.get('location')!;
    expect(location).not.toMatch(/503|555|0142|maria|lopez/i);
    expect(location).toMatch(/^\/office\?status=new&until=2026-11-30&dropped=/);
    // The view it is sent to is checked: shown as it is.
    expect((await office(location, { cookie }, page)).status).toBe(200);
    expect((await office('/office?status=new&zip=97201&page=2', { cookie }, page)).status).toBe(200);
  });
});

describe('a held change', () => {
  beforeEach(() => open());

  it('is shown (and so used) by a GET alone: a HEAD or a prefetch uses nothing', async () => {
    const held = await post('/office/status', { reference: 'Q-P7RH-Q4', status: 'done' }, await ended(MARIA));
    const cookie = `${await session(MARIA)}; ${heldCookieOf(held)}`;
    const head = await office('/office/held', { method: 'HEAD', cookie }, heldPage);
    expect(head.headers.get('set-cookie')).toBeNull();
    const prefetches: Array<Record<string, string>> = [{ 'Sec-Purpose': 'prefetch' }, { 'Sec-Purpose': 'prefetch;prerender' }, { Purpose: 'prefetch' }];
    for (const purpose of prefetches) {
      const prefetched = await office('/office/held', { cookie, headers: purpose }, heldPage);
      expect(await prefetched.text()).not.toContain('Your change');
      expect(prefetched.headers.get('set-cookie')).toBeNull();
    }
    expect(await (await office('/office/held', { cookie }, heldPage)).text()).toBe('Your change: /office/status');
  });
});
