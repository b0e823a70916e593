/**
 * The office's tools against the built server and the real stores: the CSV export a spreadsheet
 * opens safely, a quote's where and when on the inbox and in the export, exports by period and form, deletion on request on SQLite and PostgreSQL, the
 * purge, the automatic purge while submissions go on, flat memory for 100,000 leads, the usage
 * message, and /privacy stating the configured retention.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { contact, newClient, quote } from '../support/fixtures.ts';
import { call, postJson } from '../support/http.ts';
import { addUser, officePost, signedIn, STAFF } from '../support/office.ts';
import { childEnv, exportLeads, freePort, leads, ROOT, startServer, type RunningServer } from '../support/server.ts';
import { createSchema, postgresAvailable } from '../support/services.ts';

const env = { TRUST_PROXY: '127.0.0.1, ::1' };
const DAY = 86_400_000;

/** A day counted from today in the company's time zone (America/Los_Angeles), `YYYY-MM-DD`. */
function officeDay(daysFromToday = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return new Date(Date.parse(`${today}T12:00:00Z`) + daysFromToday * DAY).toISOString().slice(0, 10);
}

/** How the office's page writes a day: "Sat 5 Dec". */
function dayAsWritten(date: string): string {
  const at = new Date(`${date}T12:00:00Z`);
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][at.getUTCDay()];
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][at.getUTCMonth()];
  return `${weekday} ${at.getUTCDate()} ${month}`;
}

/** Stores leads received at the given moments straight into a SQLite store, as if sent then. */
async function storeAt(path: string, moments: Date[], body: () => Record<string, unknown> = quote): Promise<string[]> {
  const store = openSqliteStore(path);
  const ids: string[] = [];
  try {
    for (const now of moments) {
      const v = validateLead(body());
      if (!v.ok) throw new Error(JSON.stringify(v.errors));
      const lead = toLeadRecord(v.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.9', userAgent: 'test', now });
      await store.submit(lead, undefined);
      ids.push(lead.id);
    }
  } finally {
    await store.close();
  }
  return ids;
}

describe('the CSV export and the inbox', () => {
  let server: RunningServer;
  beforeAll(async () => {
    // Its own address as SITE_URL, so that the office's page takes its sign-in.
    const port = await freePort();
    server = await startServer({ env: { ...env, PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('holds every lead submitted over HTTP, quoted as RFC 4180 says, and runs no formula in a spreadsheet', async () => {
    const hostile = quote({ name: 'Zoë "Zed" Åström, Jr.', notes: '=HYPERLINK("http://example.com")\nSecond line, with a comma', phone: '+1 (503) 555-0142' });
    const tricky = contact({ message: '@SUM(A1:A2)', helpWith: '-2+3' });
    const replies = [await postJson(`${server.url}/api/v1/leads`, hostile, newClient()), await postJson(`${server.url}/api/v1/leads`, tricky, newClient())];
    expect(replies.map((r) => r.status)).toEqual([201, 201]);
    const { code, stdout } = await leads(server.databaseUrl, ['export', '--format', 'csv']);
    expect(code).toBe(0);
    expect(stdout.startsWith('\ufeff'), 'a UTF-8 byte-order mark for spreadsheets').toBe(true);
    const rows: Array<Record<string, string>> = parse(stdout, { columns: true, bom: true });
    const quoteRow = rows.find((r) => r.Reference === replies[0]!.json.reference)!;
    expect(quoteRow).toMatchObject({
      Form: 'quote request',
      Name: 'Zoë "Zed" Åström, Jr.',
      'Customer’s notes': `'=HYPERLINK("http://example.com")\nSecond line, with a comma`,
      // As the customer would dial it: nothing a spreadsheet runs, so no apostrophe.
      Phone: '(503) 555-0142',
      Bedrooms: '3',
      Status: 'New',
    });
    // No internal identifier: not the lead's id, not the E.164 phone, not how it came in.
    expect(Object.keys(quoteRow)).not.toEqual(expect.arrayContaining(['Lead id']));
    for (const column of Object.keys(quoteRow)) expect(column).not.toMatch(/id\b|E\.164|Channel|Consent/);
    expect(Object.values(quoteRow)).not.toContain(replies[0]!.json.id);
    expect(JSON.stringify(rows)).not.toContain('+15035550142');
    const contactRow = rows.find((r) => r.Reference === replies[1]!.json.reference)!;
    expect(contactRow).toMatchObject({ Form: 'contact message', Message: "'@SUM(A1:A2)", 'Help with': "'-2+3" });
    for (const row of rows) for (const cell of Object.values(row)) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
    // A lead without where and when leaves their columns empty.
    expect(quoteRow).toMatchObject({ 'ZIP code': '', 'Outside the service area': '', 'Preferred dates': '', 'How often': '', 'Reach first by': '' });
  });

  it("exports a quote's where and when in columns after the quote's fields, and the JSON lines keep the days as a list", async () => {
    // Past this week (the next test's filter), and apart from its ZIP codes.
    const days = [officeDay(20), officeDay(30)];
    const body = quote({ postalCode: '97202-1234', preferredDates: days, frequency: 'every-two-weeks', preferredContact: 'text' });
    const far = quote({ postalCode: '60601', frequency: 'monthly', preferredContact: 'email' });
    const replies = [await postJson(`${server.url}/api/v1/leads`, body, newClient()), await postJson(`${server.url}/api/v1/leads`, far, newClient())];
    expect(replies.map((r) => [r.status, r.json.inServiceArea])).toEqual([
      [201, true],
      [201, false],
    ]);
    const { stdout } = await leads(server.databaseUrl, ['export', '--format', 'csv']);
    const rows: Array<Record<string, string>> = parse(stdout, { columns: true, bom: true });
    const header = Object.keys(rows[0]!);
    expect(header.slice(header.indexOf('ZIP code'), header.indexOf('Reach only by') + 1)).toEqual([
      'ZIP code',
      'Outside the service area',
      'Preferred dates',
      'Time of day',
      'How often',
      'Reach first by',
      'Reach only by',
    ]);
    expect(rows.find((r) => r.Reference === replies[0]!.json.reference)).toMatchObject({
      'ZIP code': '97202-1234',
      'Outside the service area': 'no',
      'Preferred dates': days.join('; '),
      'How often': 'Every two weeks',
      'Reach first by': 'A text message',
    });
    expect(rows.find((r) => r.Reference === replies[1]!.json.reference)).toMatchObject({
      'ZIP code': '60601',
      'Outside the service area': 'yes',
      'Preferred dates': '',
      'How often': 'Once a month',
      'Reach first by': 'An e-mail',
    });
    const line = (await exportLeads(server.databaseUrl)).find((l) => l.id === replies[0]!.json.id)!;
    expect(line).toMatchObject({ inServiceArea: true, fields: { postalCode: '97202-1234', preferredDates: days, frequency: 'every-two-weeks' } });
  });

  it("shows a quote's where and when in words on the inbox, and its ZIP code and this-week filters select it", async () => {
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    const cookie = await signedIn(server.url);
    // Today is in this week whatever the day; 14 days on never is.
    const [today, later] = [officeDay(0), officeDay(14)];
    const near = quote({
      name: 'Wendy Wherewhen',
      postalCode: '97201',
      preferredDates: [today, later],
      frequency: 'every-two-weeks',
      preferredContact: 'text',
    });
    const far = quote({ name: 'Farley Faraway', postalCode: '10001', preferredDates: [later], frequency: 'monthly', preferredContact: 'email' });
    const plain = quote({ name: 'Paula Plain' });
    const refs: Record<string, string> = {};
    for (const body of [near, far, plain]) {
      const reply = await postJson(`${server.url}/api/v1/leads`, body, newClient());
      expect(reply.status).toBe(201);
      refs[body.name as string] = (reply.json as { reference: string }).reference;
    }
    const inbox = async (query: string) => {
      const res = await fetch(`${server.url}/office${query}`, { headers: { Cookie: cookie }, redirect: 'manual' });
      expect(res.status, query).toBe(200);
      return res.text();
    };
    // A lead's name, under a group's heading of the waiting leads (h3) or in a list of every lead (h2).
    const names = (page: string) => [...page.matchAll(/<h[23] class="lead-name"[^>]*>([^<]*)<\/h[23]>/g)].map((m) => m[1]);

    const all = await inbox('');
    expect(names(all)).toEqual(expect.arrayContaining(['Wendy Wherewhen', 'Farley Faraway', 'Paula Plain']));
    // Each lead whole, as its own page shows it (the list's rows come light).
    const whole: Record<string, string> = {};
    for (const [name, ref] of Object.entries(refs)) {
      const alone = await inbox(`?lead=${ref}`);
      whole[name] = alone.slice(alone.indexOf(`id="lead-${ref}"`), alone.indexOf('</li>', alone.indexOf(`id="lead-${ref}"`)));
    }
    const card = (name: string) => whole[name]!;
    const wendy = card('Wendy Wherewhen');
    expect(wendy).toMatch(/<dt[^>]*>ZIP code of the home<\/dt>\s*<dd[^>]*>97201, Portland, Oregon<\/dd>/);
    expect(wendy).toContain(`<time datetime="${today}">${dayAsWritten(today)}</time>, <time datetime="${later}">${dayAsWritten(later)}</time>`);
    expect(wendy).toMatch(/<dd[^>]*>Every two weeks<\/dd>/);
    expect(wendy).toMatch(/<dd[^>]*>A text message<\/dd>/);
    expect(wendy).not.toContain('Outside the service area');
    const farley = card('Farley Faraway');
    expect(farley).toContain('Outside the service area');
    expect(farley).toMatch(/<dd[^>]*>10001, outside the service area<\/dd>/);
    expect(farley).toMatch(/<dd[^>]*>Once a month<\/dd>/);
    expect(farley).toMatch(/<dd[^>]*>An e-mail<\/dd>/);
    // A lead that does not say them has no row in their place.
    for (const label of ['ZIP code of the home', 'Days that would suit you', 'How often', 'How should we reach you first?', 'service area']) {
      expect(card('Paula Plain')).not.toContain(label);
    }

    expect(names(await inbox('?zip=97201'))).toEqual(['Wendy Wherewhen']);
    expect(names(await inbox('?zip=10001-2345'))).toEqual(['Farley Faraway']);
    expect(names(await inbox('?visit=this-week'))).toEqual(['Wendy Wherewhen']);
    expect(names(await inbox('?visit=this-week&zip=10001'))).toEqual([]);
    // A ZIP code that is not one never stays in the address: the view without it, which says so in words and narrows nothing.
    const sent = await fetch(`${server.url}/office?zip=97O01`, { headers: { Cookie: cookie }, redirect: 'manual' });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe('/office?dropped=zip');
    const typo = await inbox('?dropped=zip');
    expect(typo).toContain('The ZIP box held something that is not a ZIP code, so it was left out of the search.');
    expect(names(typo)).toEqual(names(all));
    // The search form keeps both filters in the address, as it keeps the others.
    const posted = await officePost(server.url, '/office/search', { list: 'inbox', q: '', zip: '97201', visit: 'this-week' }, cookie);
    expect(posted.headers.get('location')).toBe('/office?zip=97201&visit=this-week');
  });
});

describe('exports by period and form, and the purge, on a store of known dates', () => {
  const dir = mkdtempSync(join(tmpdir(), 'office-'));
  const path = join(dir, 'leads.sqlite');
  const url = `file:${path}`;
  let ids: { oct: string; nov1: string; novContact: string; nov30: string; dec: string; old: string[] };
  beforeAll(async () => {
    const [oct, nov1, nov30, dec] = await storeAt(
      path,
      // The office's days, in its time zone (America/Los_Angeles): the last moment of 31 October, the
      // first of 1 November (PDT), the last of 30 November and the first of 1 December (PST).
      ['2026-11-01T06:59:59.999Z', '2026-11-01T07:00:00Z', '2026-12-01T07:59:59.999Z', '2026-12-01T08:00:00Z'].map((s) => new Date(s)),
    );
    const [novContact] = await storeAt(path, [new Date('2026-11-15T20:00:00Z')], contact);
    const old = await storeAt(
      path,
      [800, 760, 731].map((d) => new Date(Date.now() - d * DAY)),
    );
    ids = { oct: oct!, nov1: nov1!, novContact: novContact!, nov30: nov30!, dec: dec!, old };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const exported = async (args: string[]) => {
    const { code, stdout, stderr } = await leads(url, ['export', ...args]);
    expect(code, stderr).toBe(0);
    return stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).id as string);
  };

  it("reads --since and --until as the office's days, both included, in either spelling; a date-time with a zone as it says", async () => {
    expect(await exported(['--since', '11/01/2026', '--until', '11/30/2026'])).toEqual([ids.nov1, ids.novContact, ids.nov30]);
    expect(await exported(['--since', '2026-11-01', '--until', '2026-11-30', '--form', 'support'])).toEqual([ids.novContact]);
    expect(await exported(['--since', '12/1/2026'])).toEqual([ids.dec]);
    expect(await exported(['--since', '2026-11-01T07:00:00Z', '--until', '2026-12-01T08:00:00Z'])).toEqual([ids.nov1, ids.novContact, ids.nov30]);
    const csv = await leads(url, ['export', '--format', 'csv', '--form', 'quote', '--until', '11/15/2026']);
    const rows = parse(csv.stdout, { columns: true, bom: true }) as Array<Record<string, string>>;
    // The quote requests received until the 15th, oldest first (the spreadsheet names them by reference, not by id).
    expect(rows).toHaveLength(ids.old.length + 2);
    expect(rows.every((r) => r.Form === 'quote request')).toBe(true);
    // The spreadsheet's times are the office's, and its header says which.
    expect(rows.slice(-2).map((r) => r['Received (America/Los_Angeles time)'])).toEqual(['2026-10-31 23:59', '2026-11-01 00:00']);
  });

  it('refuses bad dates and bad options with the usage message and exit status 2', async () => {
    for (const args of [
      ['export', '--since', 'yesterday'],
      ['export', '--until', '2026-13-45'],
      ['export', '--since', '2/30/2026'],
      ['export', '--format', 'xml'],
      ['export', '--form', 'sales'],
      ['export', '--colour'],
      ['delete'],
      ['delete', '--email', 'a@example.com', '--phone', '5035550142'],
      ['delete', '--phone', '12'],
      ['purge', '--older-than', 'ten'],
      ['frobnicate'],
      [],
    ]) {
      const result = await leads(url, args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain('usage: npm run -s leads -- <command> [options]');
      expect(result.stdout).toBe('');
    }
  });

  it('a store it cannot open is a failure, exit status 1', async () => {
    const result = await leads('postgres://nobody@127.0.0.1:9/none', ['export'], { PGCONNECT_TIMEOUT: '2' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/leads export failed/);
  });

  it('purge removes the leads older than the retention period and keeps the rest', async () => {
    const dry = await leads(url, ['export']);
    expect(dry.stdout.split('\n').filter(Boolean)).toHaveLength(8);
    expect((await leads(url, ['purge', '--dry-run'])).stdout).toMatch(/^Would remove 3 leads received before .* \(730 days ago\)\. Nothing was changed/);
    expect(await exported([])).toHaveLength(8);
    const { code, stdout } = await leads(url, ['purge']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Removed 3 leads received before .* \(730 days ago\)/);
    const left = await exported([]);
    for (const id of ids.old) expect(left).not.toContain(id);
    expect(left).toEqual([ids.oct, ids.nov1, ids.novContact, ids.nov30, ids.dec]);
    // A shorter period than the configured retention, given on the command line, for the leads from
    // before December: asked first, so refused when nobody can answer, unless --yes says so.
    const days = Math.floor((Date.now() - Date.parse('2026-11-16T00:00:00Z')) / DAY);
    const unasked = await leads(url, ['purge', '--older-than', String(days)]);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toMatch(/This removes 3 leads received before .*, sooner than the 730 days the company keeps leads .* Add --yes/);
    expect(await exported([])).toHaveLength(5);
    expect((await leads(url, ['purge', '--older-than', String(days), '--yes'])).stdout).toMatch(/^Removed 3 leads received before/);
    expect(await exported([])).toEqual([ids.nov30, ids.dec]);
  });
});

describe('an export of 100,000 leads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'office-big-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A store of `n` leads, made by SQL from one real lead (a few seconds for 100,000). */
  async function storeOf(n: number): Promise<string> {
    const path = join(dir, `${n}.sqlite`);
    await storeAt(path, [new Date()]);
    const db = new DatabaseSync(path);
    db.exec(`INSERT INTO leads (id, form_type, received_at, received_via, fields, phone_e164, email_normalised, fingerprint, consent, reference) SELECT lower(hex(randomblob(16))), form_type, received_at, received_via, fields, phone_e164, email_normalised, fingerprint, consent, 'T-' || hex(randomblob(6))
             FROM leads, (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1}) SELECT i FROM n)`);
    db.close();
    return path;
  }

  /** Runs an export under a heap limit; resolves with its peak RSS (MiB) and the lines it wrote. */
  function measure(path: string, format: 'jsonl' | 'csv', heapMiB: number): Promise<{ peakMiB: number; lines: number; code: number | null }> {
    return new Promise((resolve, reject) => {
      const node = join(ROOT, 'node_modules/.bin/node');
      // The young generation capped too: left to itself it grows by tens of MiB with the run's length, whatever the export holds.
      const child = spawn(node, [`--max-old-space-size=${heapMiB}`, '--max-semi-space-size=1', 'src/cli/leads.ts', 'export', '--format', format], {
        cwd: ROOT,
        env: { ...childEnv(), DATABASE_URL: `file:${path}` },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      let peak = 0;
      let lines = 0;
      const timer = setInterval(() => {
        try {
          peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024);
        } catch {
          /* exited */
        }
      }, 20);
      child.stdout.on('data', (chunk: Buffer) => {
        for (const byte of chunk) if (byte === 10) lines++;
      });
      child.on('error', reject);
      child.on('exit', (code) => {
        clearInterval(timer);
        resolve({ peakMiB: peak, lines, code });
      });
    });
  }

  it('stops quietly when its reader stops early (`leads export | head -c 10`)', async () => {
    const path = await storeOf(2_000);
    for (const format of ['jsonl', 'csv'] as const) {
      const child = spawn(join(ROOT, 'node_modules/.bin/node'), ['src/cli/leads.ts', 'export', '--format', format], {
        cwd: ROOT,
        env: { ...childEnv(), DATABASE_URL: `file:${path}` },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      // A reader that takes ten bytes and goes away.
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(stderr, format).toBe('');
      expect(code, format).toBe(0);
    }
  });

  it('runs in flat memory: under a heap of 24 MiB, less than half of what it writes, and in about the memory of 10,000', async () => {
    const [small, big] = [await storeOf(10_000), await storeOf(100_000)];
    for (const format of ['jsonl', 'csv'] as const) {
      const a = await measure(small, format, 24);
      const b = await measure(big, format, 24);
      console.log(`export ${format}: ${a.peakMiB.toFixed(0)} MiB for 10,000 leads, ${b.peakMiB.toFixed(0)} MiB for 100,000`);
      // About 60 MB of output: an export that held it would run out of its 24 MiB heap and fail.
      expect(b.code, format).toBe(0);
      expect(b.lines).toBe(100_000 + (format === 'csv' ? 1 : 0));
      expect(b.peakMiB - a.peakMiB, format).toBeLessThan(24);
    }
  });
});

describe('/privacy states the retention the server is configured with', () => {
  for (const days of [undefined, '365']) {
    it(`LEADS_RETENTION_DAYS=${days ?? '(default)'}`, async () => {
      const server = await startServer({ env: days ? { LEADS_RETENTION_DAYS: days } : {} });
      try {
        const page = await call(`${server.url}/privacy`);
        expect(page.text).toContain(`<strong>${days ?? '730'} days</strong>`);
        expect(page.text).not.toContain('@@configured');
      } finally {
        await server.dispose();
      }
    });
  }
});

describe('deletion on request', () => {
  const run = (name: string, open: () => Promise<{ server: RunningServer; done(): Promise<void> }>, skip = false) =>
    describe.skipIf(skip)(name, () => {
      let server: RunningServer;
      let done: () => Promise<void>;
      beforeAll(async () => {
        ({ server, done } = await open());
      });
      afterAll(async () => {
        await done?.();
      });

      it("delete --email removes that person's leads while others stay; the same body and key then make a new lead", async () => {
        const person = { email: `Rosa.Parks.${Date.now()}@Example.com`, phone: '(503) 555-0166' };
        const key = crypto.randomUUID();
        const first = quote({ ...person });
        const client = newClient();
        const theirs = [
          await postJson(`${server.url}/api/v1/leads`, first, { ...client, 'Idempotency-Key': key }),
          await postJson(`${server.url}/api/v1/leads`, contact({ ...person }), client),
        ];
        const other = await postJson(`${server.url}/api/v1/leads`, quote(), client);
        expect([...theirs, other].map((r) => r.status)).toEqual([201, 201, 201]);

        const dry = await leads(server.databaseUrl, ['delete', '--email', person.email.toUpperCase(), '--dry-run']);
        expect(dry).toMatchObject({ code: 0 });
        // The dry run names whose leads they are, and warns that two names share the address.
        expect(dry.stdout).toMatch(
          /^Would remove 2 leads with this e-mail address:\n {2}C-\S+ {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}contact message {2}.+\n {2}Q-\S+ {2}.+ {2}quote request {2}.+\n/,
        );
        expect(dry.stdout).toContain('These leads carry more than one name');
        expect(dry.stdout).toMatch(/Nothing was changed \(--dry-run\)\.\n$/);
        expect((await exportLeads(server.databaseUrl)).filter((l) => theirs.some((r) => r.json.id === l.id))).toHaveLength(2);

        const done = await leads(server.databaseUrl, ['delete', '--email', person.email]);
        expect(done.code, done.stderr).toBe(0);
        expect(done.stdout).toMatch(/^Removing 2 leads with this e-mail address:\n[\s\S]*\nRemoved 2 leads\.\nA deletion record was kept/);
        expect(done.stdout).toMatch(/Backups made before now still hold these leads until they rotate out/);
        // A mistyped address is said to match nothing, not reported as a removal.
        const typo = await leads(server.databaseUrl, ['delete', '--email', person.email.replace('@', 'x@')]);
        expect(typo.stdout).toMatch(
          /^No lead has this e-mail address: check its spelling\.\nNothing matched this e-mail address, so nothing was removed\.\nA deletion record was kept/,
        );
        expect(typo.stdout).not.toMatch(/Removed/);
        const left = (await exportLeads(server.databaseUrl)).map((l) => l.id);
        for (const reply of theirs) expect(left).not.toContain(reply.json.id);
        expect(left).toContain(other.json.id);

        const again = await postJson(`${server.url}/api/v1/leads`, first, { ...client, 'Idempotency-Key': key });
        expect(again.status).toBe(201);
        expect(again.headers.get('idempotent-replayed')).toBeNull();
        expect(again.json.id).not.toBe(theirs[0]!.json.id);
      });

      it('delete --phone matches the normalised number, whatever spelling the office types', async () => {
        const person = { phone: '503.555.0155', email: `grace.h.${Date.now()}@example.com` };
        expect((await postJson(`${server.url}/api/v1/leads`, quote({ ...person }), newClient())).status).toBe(201);
        const done = await leads(server.databaseUrl, ['delete', '--phone', '+1 (503) 555-0155']);
        // It says that it removes everything that matches, and where a selection can be made.
        expect(done.stdout).toMatch(/^Removing 1 lead with this phone number:\n.*\nThe command removes every one of them\. To keep some .*\nRemoved 1 lead\./);
        expect((await exportLeads(server.databaseUrl)).some((l) => (l.fields as { email: string }).email === person.email)).toBe(false);
      });
    });

  run('on SQLite', async () => {
    const server = await startServer({ env });
    return { server, done: () => server.dispose() };
  });
  run(
    'on PostgreSQL',
    async () => {
      const schema = await createSchema();
      const server = await startServer({ env: { ...env, DATABASE_URL: schema.url } });
      return {
        server,
        done: async () => {
          await server.dispose();
          await schema.drop();
        },
      };
    },
    !postgresAvailable(),
  );
});

describe('the automatic purge', () => {
  const dir = mkdtempSync(join(tmpdir(), 'office-auto-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs at start-up, in steps, while submissions go on, and none of them fails', async () => {
    // 30,000 leads past the retention period (one stored, the rest copied by SQL with their own ids and times).
    const path = join(dir, 'leads.sqlite');
    await storeAt(path, [new Date(Date.now() - 800 * DAY)]);
    const db = new DatabaseSync(path);
    db.exec(`INSERT INTO leads (id, form_type, received_at, received_via, fields, phone_e164, email_normalised, fingerprint, consent, reference) SELECT lower(hex(randomblob(16))), form_type, strftime('%Y-%m-%dT%H:%M:%fZ', received_at, '-' || i || ' minutes'), received_via, fields, phone_e164, email_normalised, fingerprint, consent, 'T-' || hex(randomblob(6))
             FROM leads, (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 29999) SELECT i FROM n)`);
    const old = (db.prepare('SELECT id FROM leads').all() as Array<{ id: string }>).map((r) => r.id);
    db.close();
    const server = await startServer({ dir, env });
    try {
      const statuses: number[] = [];
      const accepted: string[] = [];
      let purged = false;
      const submitter = async () => {
        while (!purged) {
          const reply = await postJson(`${server.url}/api/v1/leads`, quote(), newClient());
          statuses.push(reply.status);
          if (reply.status === 201) accepted.push(reply.json.id);
        }
      };
      const submitters = Array.from({ length: 4 }, submitter);
      // Steps of 50 leads with a pause between them: about 7 s here for the 30,000, longer on a busy machine.
      for (let i = 0; i < 3_600 && !server.logs.some((l) => l.includes('retention purge done')); i++) await new Promise((r) => setTimeout(r, 50));
      purged = true;
      await Promise.all(submitters);
      const doneAt = server.logs.findIndex((l) => l.includes('retention purge done'));
      const done = JSON.parse(server.logs[doneAt]!);
      expect(done.removed.leads).toBe(old.length);
      const answeredMeanwhile = server.logs.slice(0, doneAt).filter((l) => l.includes('"status":201'));
      expect(answeredMeanwhile.length, 'submissions answered while the purge ran').toBeGreaterThan(0);
      expect(statuses.length).toBeGreaterThan(0);
      expect(new Set(statuses)).toEqual(new Set([201]));
      const left = new Set((await exportLeads(server.databaseUrl)).map((l) => l.id));
      for (const id of old) expect(left.has(id)).toBe(false);
      for (const id of accepted) expect(left.has(id)).toBe(true);
    } finally {
      await server.dispose();
    }
  });
});

describe("the office's accounts and files, from the command line as docs/office.md writes it", () => {
  const dir = mkdtempSync(join(tmpdir(), 'office-cli-'));
  const url = `file:${join(dir, 'leads.sqlite')}`;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const shell = (command: string, input = '') =>
    spawnSync('sh', ['-c', command], { cwd: ROOT, env: { ...childEnv(), DATABASE_URL: url }, input, encoding: 'utf8' });

  it('user add reads the password from standard input, refuses a short one, and list and remove say what they did', () => {
    const short = shell('npm run -s leads -- user add office@example.com', 'too short\n');
    expect(short.status).toBe(2);
    // One line says what is wrong, without the whole usage.
    expect(short.stderr).toBe('leads user: the password has 9 characters; it needs at least 12. Nothing was changed.\n');
    const added = shell('npm run -s leads -- user add Office@Example.com', 'mop and bucket 2026\n');
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout).toBe('Added office@example.com as an owner: they can sign in at /office.\n');
    expect(shell('npm run -s leads -- user add office@example.com', 'a new passphrase 2027\n').stdout).toContain('Set a new password for office@example.com');
    expect(shell('npm run -s leads -- user list').stdout).toMatch(/^office@example\.com {2}owner {2}added \d{4}-\d\d-\d\d \d\d:\d\d {2}never signed in\n$/);
    // Roles: a member of staff, made so or changed; a role that is neither is refused.
    expect(shell('npm run -s leads -- user add helper@example.com --role staff', 'a helper passphrase 1\n').stdout).toBe(
      'Added helper@example.com as staff: they can sign in at /office.\n',
    );
    expect(shell('npm run -s leads -- user list').stdout).toMatch(/^helper@example\.com {2}staff {2}added /);
    expect(shell('npm run -s leads -- user add helper@example.com --role owner', 'a helper passphrase 2\n').stdout).toContain(
      'Set a new password for helper@example.com, now an owner;',
    );
    const boss = shell('npm run -s leads -- user add helper@example.com --role boss', 'a helper passphrase 3\n');
    expect(boss.status).toBe(2);
    expect(boss.stderr).toContain('--role must be staff or owner (got "boss")');
    expect(shell('npm run -s leads -- user remove helper@example.com').status).toBe(0);
    expect(shell('npm run -s leads -- user remove office@example.com').stdout).toBe('Removed office@example.com; their sessions have ended.\n');
    expect(shell('npm run -s leads -- user remove office@example.com').stdout).toBe('There is no account office@example.com: nothing was changed.\n');
    // The password is stored only as a slow, salted hash.
    const db = new DatabaseSync(url.slice(5), { readOnly: true });
    const everything = JSON.stringify(db.prepare('SELECT * FROM office_audit').all());
    db.close();
    expect(everything).not.toContain('mop and bucket');
  });

  it('user add on a terminal checks the password at the first answer, and says what is wrong in one line', () => {
    // script(1) gives the command a terminal: the password is asked for, and a short one is refused before it is asked again.
    const typed = spawnSync('script', ['-qec', 'npm run -s leads -- user add office@example.com', '/dev/null'], {
      cwd: ROOT,
      env: { ...childEnv(), DATABASE_URL: url },
      input: 'too short\n',
      encoding: 'utf8',
    });
    expect(typed.status).toBe(2);
    expect(typed.stdout).toContain('Password (at least 12 characters; not shown)');
    expect(typed.stdout).toContain('leads user: the password has 9 characters; it needs at least 12. Nothing was changed.');
    expect(typed.stdout).not.toContain('The same password again');
    expect(typed.stdout).not.toContain('usage:');
  });

  it('export --format csv > leads.csv writes a file whose first bytes are the byte-order mark, with no line of npm', async () => {
    await storeAt(url.slice(5), [new Date()]);
    const out = join(dir, 'leads.csv');
    const jsonl = join(dir, 'leads.jsonl');
    expect(shell(`npm run -s leads -- export --format csv > ${out} && npm run -s leads -- export > ${jsonl}`).status).toBe(0);
    const bytes = readFileSync(out);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8', 3, 12)).toBe('Reference');
    for (const line of readFileSync(jsonl, 'utf8').split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  });
});
