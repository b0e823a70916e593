/**
 * The office on two built instances behind a real nginx, sharing one PostgreSQL schema and one
 * Redis (issue 48, item 6): a session made on one instance is the other's too, a change held on
 * one after its session ended is shown and made once on the other, and the sign-in and change
 * limits are counted once for both. Each instance is spoken to directly where the point is "made
 * on one, used on the other", and through nginx where it is the deployment itself.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS } from '../../src/leads/retention.ts';
import { quote } from '../support/fixtures.ts';
import { nginxAvailable, startNginx } from '../support/nginx.ts';
import { addUser, officePost, sentLead, STAFF } from '../support/office.ts';
import { freePort, startServer, type RunningServer } from '../support/server.ts';
import { createSchema, postgresAvailable, redisAvailable, REDIS_URL } from '../support/services.ts';

const engines = postgresAvailable() && redisAvailable();

/** The office's changes a minute, per account, for both instances (`OFFICE_ACTIONS_PER_MINUTE`). */
const CHANGES_PER_MINUTE = 6;

/**
 * The counters live in the machine's one Redis, kept past this run (15 minutes for sign-ins): every
 * account and client address is this run's own, so that neither an earlier run nor another suite counts here.
 */
const run = randomBytes(4).toString('hex');
const account = (who: string) => ({ email: `${who}.${run}@example.com`, password: STAFF.password });
const SESSION = account('session');
const HOLDER = account('holder');
const GUESSED = account('guessed');
const BUSY = account('busy');
const THROUGH_NGINX = account('nginx');

let clients = 0;
/** A client of this run's own (a fresh /64 of the IPv6 documentation prefix), believed through TRUST_PROXY. */
const newClient = () => ({ 'X-Forwarded-For': `2001:db8:${run.slice(0, 4)}:${(++clients).toString(16)}::1` });

/** The value of the cookie `name` among a response's `Set-Cookie` headers, as a `Cookie` pair. */
function cookieOf(res: Response, name: string): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return set?.split(';', 1)[0];
}

describe.skipIf(!engines || !nginxAvailable())('the office on two instances behind nginx, sharing PostgreSQL and Redis', () => {
  let dir: string;
  let schema: Awaited<ReturnType<typeof createSchema>>;
  let db: pg.Client;
  let a: RunningServer;
  let b: RunningServer;
  let proxy: { url: string; stop(): Promise<void> };
  /** The public origin, nginx's: `SITE_URL` of both instances, and the origin their office forms are accepted from. */
  let site: string;

  /** A form POST of the office's page sent to `base` (an instance, or nginx) from a browser on the site. */
  const post = (base: string, path: string, fields: Record<string, string>, cookies: Array<string | undefined>, client = newClient()) =>
    officePost(base, path, fields, cookies.filter(Boolean).join('; ') || undefined, { Origin: site, ...client });
  const get = (base: string, path: string, cookies: Array<string | undefined>) =>
    fetch(`${base}${path}`, { redirect: 'manual', headers: { Cookie: cookies.filter(Boolean).join('; '), ...newClient() } });
  /** Signs `who` in on `base`; resolves with the session's cookie. */
  async function signIn(base: string, who: { email: string; password: string }, client = newClient()): Promise<string> {
    const res = await post(base, '/office/sign-in', who, [], client);
    const cookie = cookieOf(res, 'office_session');
    if (res.status !== 303 || !cookie) throw new Error(`sign-in on ${base} failed: ${res.status} ${await res.text()}`);
    return cookie;
  }
  const statusOf = async (reference: string) =>
    (await db.query<{ status: string }>('SELECT status FROM leads WHERE reference = $1', [reference])).rows[0]?.status;
  /** How many status changes of the lead the audit trail records: each change made, once. */
  async function statusChanges(reference: string): Promise<number> {
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM office_audit WHERE action = 'set a status' AND detail LIKE $1", [
      `%${reference}%`,
    ]);
    return rows[0]!.n;
  }
  const servedOffice = (s: RunningServer, path: string) => s.logs.filter((l) => l.includes(`"path":"${path}"`)).length;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'office-instances-'));
    schema = await createSchema();
    const port = await freePort();
    site = `http://127.0.0.1:${port}`;
    const env = { DATABASE_URL: schema.url, REDIS_URL, TRUST_PROXY: '127.0.0.1', SITE_URL: site, OFFICE_ACTIONS_PER_MINUTE: String(CHANGES_PER_MINUTE) };
    // Both at once: the migrations are serialised by an advisory lock.
    [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
    proxy = await startNginx(dir, port, [a.port, b.port]);
    await Promise.all([SESSION, HOLDER, GUESSED, BUSY, THROUGH_NGINX].map((who) => addUser(schema.url, who.email, who.password, ['--role', 'staff'])));
    db = new pg.Client({ connectionString: schema.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await proxy?.stop();
    await Promise.all([a?.dispose(), b?.dispose()]);
    await schema?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('takes a session made on one instance on the other: the inbox, a change, and the sign-out that ends it on both', async () => {
    const reference = await sentLead(a.url, quote({ name: 'Ada Session', phone: '(503) 555-0161', email: 'ada.session@example.com' }));
    const cookie = await signIn(a.url, SESSION);

    const inbox = await get(b.url, '/office', [cookie]);
    expect(inbox.status).toBe(200);
    const page = await inbox.text();
    expect(page).toContain('<h1>Inbox</h1>');
    expect(page).toContain(reference);

    const changed = await post(b.url, '/office/status', { reference, status: 'contacted' }, [cookie]);
    expect(changed.status).toBe(303);
    expect(changed.headers.get('location')).toContain(`changed=${reference}`);
    expect(await statusOf(reference)).toBe('contacted');
    expect(await statusChanges(reference)).toBe(1);
    // A still has it, and shows the change B made.
    expect(await (await get(a.url, '/office?status=contacted', [cookie])).text()).toContain(reference);

    // Signed out on B, the session is over on A as well.
    const out = await post(b.url, '/office/sign-out', {}, [cookie]);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/office/sign-in?signed-out');
    const after = await get(a.url, '/office', [cookie]);
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/office/sign-in?next=%2Foffice');
  });

  it('through nginx, one session serves every request whichever instance answers it', async () => {
    const cookie = await signIn(proxy.url, THROUGH_NGINX);
    const [servedByA, servedByB] = [servedOffice(a, '/office'), servedOffice(b, '/office')];
    for (let i = 0; i < 6; i++) {
      const res = await get(proxy.url, '/office', [cookie]);
      expect(res.status, `request ${i + 1} through nginx`).toBe(200);
      expect(await res.text()).toContain('<h1>Inbox</h1>');
    }
    // nginx spread them: both instances answered the same session's inbox.
    expect(servedOffice(a, '/office')).toBeGreaterThan(servedByA);
    expect(servedOffice(b, '/office')).toBeGreaterThan(servedByB);
  });

  it('holds a change sent to one instance after the session ended, and shows and makes it once on the other after signing in there', async () => {
    const reference = await sentLead(a.url, quote({ name: 'Bea Held', phone: '(503) 555-0162', email: 'bea.held@example.com' }));
    const browser = newClient();
    const session = await signIn(a.url, HOLDER, browser);
    // An hour without use: the session has ended, on every instance.
    await db.query('UPDATE office_sessions SET last_seen_at = $1 WHERE email = $2', [new Date(Date.now() - SESSION_IDLE_MS - 60_000), HOLDER.email]);
    expect((await get(b.url, '/office', [session])).status).toBe(303);

    const sent = await post(a.url, '/office/status', { reference, status: 'done' }, [session], browser);
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe('/office/sign-in?held');
    const held = cookieOf(sent, 'office_held');
    expect(held).toBeDefined();
    expect(await statusOf(reference), 'nothing is made behind the office’s back').toBe('new');

    // Signing in on B (the browser still has the held cookie) leads to the held change first.
    const signedIn = await post(b.url, '/office/sign-in', HOLDER, [session, held], browser);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/office/held');
    const fresh = cookieOf(signedIn, 'office_session')!;
    expect(fresh).toBeDefined();

    const shown = await get(b.url, '/office/held', [fresh, held]);
    expect(shown.status).toBe(200);
    const page = await shown.text();
    expect(page).toContain(`Mark ${reference} as “Done”.`);
    const fields = Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    expect(fields).toMatchObject({ reference, status: 'done' });
    expect(page).toContain('action="/office/status"');

    // "Make this change", on B.
    const made = await post(b.url, '/office/status', fields, [fresh], browser);
    expect(made.status).toBe(303);
    expect(made.headers.get('location')).toContain(`changed=${reference}`);
    expect(await statusOf(reference)).toBe('done');
    expect(await statusChanges(reference)).toBe(1);

    // Shown once, on either instance: it was taken on B.
    for (const instance of [a, b]) {
      const again = await get(instance.url, '/office/held', [fresh, held]);
      expect(again.status).toBe(200);
      expect(await again.text()).toContain('No change is waiting here for you');
    }
    expect(await statusChanges(reference)).toBe(1);
  });

  it('counts wrong passwords once across both instances: the sixth try from one client is refused, whichever instance it reaches', async () => {
    const guesser = newClient();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await post(i % 2 ? b.url : a.url, '/office/sign-in', { email: GUESSED.email, password: `not the password ${i}` }, [], guesser);
      statuses.push(res.status);
    }
    // Five wrong tries on one account from one connection (SIGN_IN_LIMITS.accountFromClient), in all, not five on each.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Paused on both, even with the right password.
    for (const instance of [a, b]) {
      const res = await post(instance.url, '/office/sign-in', GUESSED, [], guesser);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(60);
      expect(await res.text()).toContain('Too many sign-in attempts');
    }
    // The account itself is not paused for everyone: from the office's own connection it signs in, on either instance.
    await signIn(a.url, GUESSED);
    await signIn(b.url, GUESSED);
  });

  it('counts the account’s changes once across both instances and both of its sessions: refused after the limit in all', async () => {
    const reference = await sentLead(a.url, quote({ name: 'Cy Busy', phone: '(503) 555-0163', email: 'cy.busy@example.com' }));
    const onA = await signIn(a.url, BUSY);
    const onB = await signIn(b.url, BUSY);
    const statuses: number[] = [];
    const refusals: string[] = [];
    for (let i = 0; i < CHANGES_PER_MINUTE + 2; i++) {
      const res =
        i % 2
          ? await post(b.url, '/office/status', { reference, status: 'new' }, [onB])
          : await post(a.url, '/office/status', { reference, status: 'contacted' }, [onA]);
      statuses.push(res.status);
      if (res.status === 429) refusals.push(await res.text());
    }
    expect(statuses).toEqual([...Array(CHANGES_PER_MINUTE).fill(303), 429, 429]);
    for (const words of refusals)
      expect(words).toMatch(new RegExp(`more changes in a minute than the office page takes \\(${CHANGES_PER_MINUTE}\\)\\. Nothing was changed`));
    // The refused ones changed nothing: the last change made was the sixth (back to new).
    expect(await statusChanges(reference)).toBe(CHANGES_PER_MINUTE);
    expect(await statusOf(reference)).toBe('new');
  });
});
