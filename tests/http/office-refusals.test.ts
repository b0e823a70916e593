/**
 * Every refusal of the office is a page in its look, in process through the front door the server
 * uses (`answerOnDemand`) on a real SQLite store: a member of staff on an owner's page (403), a change
 * from elsewhere (403), a method the office does not take (405), a form too long (413), one change too
 * many (429), a lead that is gone (404, the take action's own), staff letting go of a lead a colleague has (409): each keeps its status, its headers and
 * the rate limit as they were, says why in words under the office's header, leads back to the inbox,
 * runs and styles nothing inline, and shows nothing of what was sent.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { APIContext } from 'astro';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerOnDemand } from '../../src/http/front-door.ts';
import type { ApiContext } from '../../src/http/context.ts';
import { OFFICE_HEADERS } from '../../src/http/office-guard.ts';
import { inlineCode, securityHeaders } from '../../src/http/security-headers.ts';
import { tokenHash } from '../../src/office/session.ts';
import { POST as postNote } from '../../src/pages/office/note.ts';
import { POST as postTake } from '../../src/pages/office/take.ts';
import { POST as postWork } from '../../src/pages/office/work.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { newClient, promise, quote } from '../support/fixtures.ts';

const HASH = 'scrypt$1$1$1$AA==$AA==';
const OWNER = 'owner@example.com';
const HELPER = 'helper@example.com';
/** What a customer sent, which no refusal may show. */
const CUSTOMER = { name: 'Zelda Private', email: 'zelda.private@example.com', phone: '(503) 555-0199', note: 'Gate code 4411' };

let app: TestApp;
afterEach(() => app?.dispose());

async function open(env: Record<string, string> = {}) {
  app = await testApp({ env });
  await app.store.saveUser(OWNER, HASH, new Date(), undefined, 'owner');
  await app.store.saveUser(HELPER, HASH, new Date(), undefined, 'staff');
}

async function session(email: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  if (!(await app.store.startSession(tokenHash(token), email, HASH, new Date(), { at: new Date(), actor: email, action: 'signed in', detail: '' })))
    throw new Error('no session');
  return `office_session=${token}`;
}

type Page = (locals: ApiContext, request: Request) => Promise<Response>;
const changed: Page = async () => new Response(null, { status: 204 });

function office(path: string, init: RequestInit & { cookie?: string } = {}, page: Page = changed): Promise<Response> {
  const { cookie, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (cookie) headers.set('Cookie', cookie);
  const request = new Request(new URL(path, app.services.config.siteUrl), { ...rest, headers });
  const locals: ApiContext = { services: app.services, request: { id: randomUUID(), clientAddress: '127.0.0.1', host: new URL(request.url).host } };
  return answerOnDemand(request, new URL(request.url), locals, app.composition.office, () => page(locals, request), { requestIdSent: false });
}

const form = (fields: Record<string, string>, cookie?: string, origin = app.services.config.siteUrl): RequestInit & { cookie?: string } => ({
  method: 'POST',
  cookie,
  headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/** Holds a refusal to the office's page: its status, headers as every office answer's, the office's look, the words, the way back. */
async function expectRefusalPage(res: Response, status: number, words: RegExp) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const expected: Record<string, string> = { ...securityHeaders(app.services.config).onDemandPage, ...OFFICE_HEADERS };
  for (const [name, value] of Object.entries(expected)) expect(res.headers.get(name), name).toBe(value);
  const html = await res.text();
  expect(html).toMatch(/^<!doctype html>/);
  // The layout's look: its stylesheet (a file of this site, which the policy's style-src 'self' allows) and its header.
  // (Vitest stands in an empty address for the built file; the browser test loads it.)
  expect(html).toMatch(/<link rel="stylesheet" href="[^"]*" \/>/);
  expect(html).toContain(`<span class="brand">${promise().companyName} · Office</span>`);
  expect(inlineCode(html)).toEqual([]);
  // Nothing runs and nothing leads elsewhere (the address to use may be said in words).
  expect(html).not.toMatch(/<script|(href|src|action)="https?:\/\//);
  expect(html).toMatch(/<h1>[^<]+<\/h1>/);
  expect(html).toMatch(words);
  expect(html).toContain('<a href="/office">Back to the inbox</a>');
  for (const detail of Object.values(CUSTOMER)) expect(html).not.toContain(detail);
  return html;
}

/** A lead taken in through the API: its reference. */
async function sentLead(): Promise<string> {
  const sent = await app.fetch('/api/v1/leads', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...newClient() },
    body: JSON.stringify(quote()),
  });
  return ((await sent.json()) as { reference: string }).reference;
}

/** An action's own route, standing for the page. */
const page =
  (handler: typeof postWork): Page =>
  async (locals, request) =>
    handler({ locals, request } as unknown as APIContext);

describe("the office's refusals", () => {
  beforeEach(() => open({ OFFICE_ACTIONS_PER_MINUTE: '2' }));

  it('answers a member of staff on an owner’s page with a page of the office saying it is for the owners', async () => {
    const helper = await session(HELPER);
    for (const path of ['/office/system', '/office/export', '/office/delete']) {
      const html = await expectRefusalPage(await office(path, { cookie: helper }), 403, /is for the company’s owners only/);
      expect(html).toContain('<h1>Not open to you here</h1>');
    }
    // A deletion sent by staff anyway: refused the same, and what it named is not repeated.
    await expectRefusalPage(await office('/office/delete', form({ person: CUSTOMER.email, confirm: 'yes' }, helper)), 403, /ask an owner/);
    // HEAD: the same answer, without its body.
    const head = await office('/office/system', { method: 'HEAD', cookie: helper });
    expect(head.status).toBe(403);
    expect(await head.text()).toBe('');
  });

  it('answers a change from elsewhere, a method it does not take and a form too long with pages that show nothing sent', async () => {
    const owner = await session(OWNER);
    await expectRefusalPage(await office('/office/note', form({ note: CUSTOMER.note }, owner, 'https://elsewhere.example')), 403, /Nothing was changed/);
    const put = await office('/office', { method: 'PUT', cookie: owner, body: CUSTOMER.name });
    await expectRefusalPage(put, 405, /read with GET and changed with its own forms/);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    const long = { ...CUSTOMER, note: `${CUSTOMER.note} ${'x'.repeat(9000)}` };
    await expectRefusalPage(await office('/office/note', form(long, owner)), 413, /longer than the office page’s forms take/);
  });

  it('answers one change too many with a page saying how long to wait, the limit and Retry-After as before', async () => {
    const owner = await session(OWNER);
    for (let i = 0; i < 2; i++) expect((await office('/office/note', form({ note: CUSTOMER.note }, owner))).status).toBe(204);
    const refused = await office('/office/note', form({ note: CUSTOMER.note }, owner));
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    const html = await expectRefusalPage(refused, 429, /more changes in a minute than the office page takes \(2\)\. Nothing was changed\. Wait \d+ seconds?/);
    expect(html).toContain('<h1>Too many changes in a minute</h1>');
  });

  it('answers an action on a lead that is gone (its own 404) with the same page', async () => {
    const owner = await session(OWNER);
    const take: Page = async (locals, request) => postTake({ locals, request } as unknown as APIContext);
    const gone = await office('/office/take', form({ reference: 'Q-P7RH-Q4', take: 'yes', back: '/office' }, owner), take);
    const html = await expectRefusalPage(gone, 404, /There is no lead with this reference any more/);
    expect(html).not.toContain('Q-P7RH-Q4');
  });

  it('answers staff letting go of a lead a colleague has, by either form, with a page naming who has it now, and changes nothing', async () => {
    const reference = await sentLead();
    await app.store.workLead(reference, {
      owner: { to: OWNER, audit: { at: new Date(), actor: OWNER, action: 'set the owner', detail: `Took ${reference}.` } },
    });
    const helper = await session(HELPER);
    // The lead's own form, posted by hand with "Nobody" (the form shows staff only the holder and "You"), and the single form.
    const byHand = { reference, owner: 'nobody', 'was-owner': 'me', status: 'done', 'was-status': 'new', note: 'Mine now.', back: '/office' };
    const work = await office('/office/work', form(byHand, helper), page(postWork));
    const html = await expectRefusalPage(
      work,
      409,
      new RegExp(`${OWNER} has this lead now, so you cannot make it nobody’s. Nothing was saved, not even a note`),
    );
    expect(html).toContain('<h1>Changed meanwhile</h1>');
    const take = await office('/office/take', form({ reference, take: 'no', back: '/office' }, helper), page(postTake));
    await expectRefusalPage(take, 409, /has this lead now, so you cannot make it nobody’s/);
    const [lead] = await app.store.inbox({ reference, limit: 1, offset: 0 });
    expect(lead).toMatchObject({ owner: OWNER, status: 'new', notes: [] });
  });

  it('answers a note holding a character the intake refuses, by either form, with a page saying so, and saves nothing of the form', async () => {
    const reference = await sentLead();
    const owner = await session(OWNER);
    const turned = `${CUSTOMER.note} \u202eenod yllaer\u202c`;
    const work = { reference, status: 'done', 'was-status': 'new', owner: 'me', 'was-owner': 'nobody', note: turned, back: '/office' };
    await expectRefusalPage(await office('/office/work', form(work, owner), page(postWork)), 400, /cannot be shown as it was typed.*Nothing was saved/);
    await expectRefusalPage(
      await office('/office/note', form({ reference, note: 'Gate\u0000code', back: '/office' }, owner), page(postNote)),
      400,
      /Nothing was saved/,
    );
    const [lead] = await app.store.inbox({ reference, limit: 1, offset: 0 });
    expect(lead).toMatchObject({ status: 'new', notes: [] });
    expect(lead!.owner).toBeUndefined();
  });

  it('escapes what its words hold', async () => {
    const { refusalHtml } = await import('../../src/office/refusal-page.ts');
    const html = refusalHtml(400, 'A <b>bold</b> "claim" & more', 'Tom & Jerry’s <Cleaning>');
    expect(html).toContain('A &lt;b&gt;bold&lt;/b&gt; &quot;claim&quot; &amp; more');
    expect(html).toContain('Tom &amp; Jerry’s &lt;Cleaning&gt; · Office');
  });
});
