/**
 * The office hears of every new lead: the built server sends each acknowledged lead to a real SMTP
 * server the test runs on loopback (smtp-server), on SQLite and on PostgreSQL; through a mail
 * outage, a SIGKILL and two instances sharing PostgreSQL, every lead gives exactly one message,
 * and no submission waits for the mail.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { contact, newClient, quote } from '../support/fixtures.ts';
import { postJson } from '../support/http.ts';
import { leads, startServer, type RunningServer } from '../support/server.ts';
import { createSchema, postgresAvailable } from '../support/services.ts';
import { SMTP_PASSWORD, SMTP_USER, smtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink.ts';

const OFFICE = ['office@example.com', 'owner@example.com'];
const mailEnv = (sink: SmtpSink) => ({
  TRUST_PROXY: '127.0.0.1, ::1',
  SMTP_URL: sink.url,
  OFFICE_EMAIL: OFFICE.join(', '),
  MAIL_FROM: 'Lead intake <leads@example.com>',
});

/** The lead id a message is about, from its Message-ID. */
const leadOf = (mail: ReceivedMail) => /^<lead-([0-9a-f-]{36})@/.exec(mail.parsed.messageId ?? '')?.[1];

/** The short reference of each lead posted by `submit`, by its id. */
const references = new Map<string, string>();

/** Posts a lead and returns its receipt id (201), failing the test on any other answer. */
async function submit(server: RunningServer, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
  const reply = await postJson(`${server.url}/api/v1/leads`, body, { ...newClient(), ...headers });
  expect(reply.status, reply.text).toBe(201);
  references.set(reply.json.id, reply.json.reference);
  return reply.json.id as string;
}

/** Waits until `predicate` holds for the server's log, or fails after `ms`. */
async function logged(server: RunningServer, predicate: (line: string) => boolean, ms = 120_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const line = server.logs.find(predicate);
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no such log line within ${ms} ms:\n${server.logs.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The log holds no personal data of these bodies and never the SMTP password. */
function expectCleanLog(logs: string[], bodies: Array<Record<string, unknown>>): void {
  const text = logs.join('\n');
  for (const body of bodies) {
    for (const field of ['name', 'email', 'phone', 'notes', 'message'] as const) {
      if (typeof body[field] === 'string') expect(text).not.toContain(body[field]);
    }
  }
  expect(text).not.toContain(SMTP_PASSWORD);
  expect(text).not.toContain('555-01');
}

const stores = [
  { name: 'SQLite', skip: false, databaseUrl: async () => ({ env: {}, drop: async () => {} }) },
  {
    name: 'PostgreSQL',
    skip: !postgresAvailable(),
    databaseUrl: async () => {
      const schema = await createSchema();
      return { env: { DATABASE_URL: schema.url }, drop: () => schema.drop() };
    },
  },
];

for (const store of stores) {
  describe.skipIf(store.skip)(`the office's e-mail, on ${store.name}`, () => {
    it("sends exactly one message for every 201, with the lead's fields, and none for a replay or a duplicate", async () => {
      const sink = await smtpSink();
      const db = await store.databaseUrl();
      const server = await startServer({ env: { ...mailEnv(sink), ...db.env } });
      try {
        const bodies = [
          quote({ name: 'Ada Quote', email: 'Ada.Quote@Example.com', phone: '503.555.0111' }),
          contact({ name: 'Bo Contact' }),
          quote({ postalCode: '98660', frequency: 'weekly', preferredContact: 'call' }),
          quote({ allowedContact: ['email'], preferredContact: 'email' }),
          contact(),
        ];
        const keys = bodies.map(() => crypto.randomUUID());
        const ids: string[] = [];
        for (const [i, body] of bodies.entries()) ids.push(await submit(server, body, { 'Idempotency-Key': keys[i]! }));
        // A replay of the first is acknowledged again and a duplicate of the second refused: neither stored anything new.
        const replay = await postJson(`${server.url}/api/v1/leads`, bodies[0], { ...newClient(), 'Idempotency-Key': keys[0]! });
        expect(replay.status).toBe(201);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        ids.push(replay.json.id);
        expect((await postJson(`${server.url}/api/v1/leads`, bodies[1], newClient())).status).toBe(409);

        const received = await sink.waitFor(new Set(ids).size);
        // A moment more: nothing else arrives.
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        expect(received.map(leadOf).sort()).toEqual([...new Set(ids)].sort());

        const first = received.find((m) => leadOf(m) === ids[0])!;
        expect(first.user).toBe(SMTP_USER);
        expect(first.envelope).toEqual({ from: 'leads@example.com', to: OFFICE });
        expect(first.parsed.subject).toBe(`Quote request ${references.get(ids[0]!)} from Ada Quote`);
        expect(first.parsed.replyTo?.value).toEqual([{ name: 'Ada Quote', address: 'ada.quote@example.com' }]);
        for (const line of [
          'Name: Ada Quote',
          'Phone: (503) 555-0111  (as typed: 503.555.0111)',
          // No limits: a link for each way, in the forms' order.
          'How to reach them (as they allow, their first choice first):\n  Call: (503) 555-0111  tel:+15035550111\n  Text: (503) 555-0111  sms:+15035550111\n' +
            '  E-mail: ada.quote@example.com  mailto:ada.quote@example.com\n\n',
          'E-mail: ada.quote@example.com',
          'Bedrooms: 3',
          'Bathrooms: 2.5',
          'Service: Deep clean',
          `Notes:\n  ${bodies[0]!.notes}`,
          'Came by: the API (/api/v1/leads)',
          `Reference: ${references.get(ids[0]!)} (the customer was given it, and may quote it)`,
          `Lead id: ${ids[0]}`,
        ]) {
          expect(first.parsed.text).toContain(line);
        }
        expect(first.parsed.text).toMatch(/^Received: \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z \(UTC\)$/m);
        const second = received.find((m) => leadOf(m) === ids[1])!;
        expect(second.parsed.subject).toBe(`Contact message ${references.get(ids[1]!)} from Bo Contact`);
        expect(second.parsed.text).toContain(`Message:\n  ${bodies[1]!.message}`);
        // Where the home is, by the town the company's facts give its ZIP code, and how often and how to reach first, in words.
        const third = received.find((m) => leadOf(m) === ids[2])!.parsed.text!;
        for (const line of ['ZIP code: 98660, Vancouver, Washington', 'How often: Every week', 'Reach first by: A phone call'])
          expect(third).toContain(`\n${line}\n`);
        expect(first.parsed.text).not.toContain('ZIP code:');
        // The first choice first; e-mail only: no link to call or text, and the ways left out said in words.
        expect(third).toContain('\n  Call: (503) 555-0142  tel:+15035550142  (their first choice)\n  Text: ');
        const mailOnly = received.find((m) => leadOf(m) === ids[3])!.parsed.text!;
        expect(mailOnly).toMatch(/\n {2}E-mail: \S+@example\.com {2}mailto:\S+@example\.com {2}\(their first choice\)\n {2}Not allowed: no calls, no texts\n/);
        expect(mailOnly).not.toMatch(/tel:|sms:/);

        // A deletion request names the office's e-mails about the person's leads, to be deleted from its mailbox too.
        const deletion = await leads(server.databaseUrl, ['delete', '--email', 'ada.quote@example.com'], mailEnv(sink));
        expect(deletion.code, deletion.stderr).toBe(0);
        expect(deletion.stdout).toContain(
          `The office was e-mailed about 1 of these leads: delete those messages from the office's mailbox too. Search it for their references:\n  ${references.get(ids[0]!)}\n`,
        );

        expect(JSON.parse(server.logs.find((l) => l.includes('"msg":"listening"'))!)).toMatchObject({ officeMail: 'on' });
        // Logged once each message is marked sent, after the mail server took it: wait for the lines.
        await expect.poll(() => server.logs.filter((l) => l.includes('"msg":"office e-mail sent"')).length).toBe(5);
        expectCleanLog(server.logs, bodies);
      } finally {
        await server.dispose();
        await sink.stop();
        await db.drop();
      }
    });

    it('keeps acknowledging leads while the mail server is down, says what waits, and delivers every message once it is back', async () => {
      const sink = await smtpSink({ listening: false });
      const db = await store.databaseUrl();
      const server = await startServer({ env: { ...mailEnv(sink), ...db.env } });
      try {
        const bodies = [quote(), contact(), quote()];
        const ids: string[] = [];
        for (const body of bodies) ids.push(await submit(server, body));
        const failure = JSON.parse(await logged(server, (l) => l.includes('office e-mail failed')));
        expect(failure).toMatchObject({ level: 40, attempt: 1, error: expect.stringMatching(/ECONNREFUSED|ESOCKET|ECONNECTION/) });
        expect(ids).toContain(failure.leadId);

        const listing = await leads(server.databaseUrl, ['outbox'], { ...mailEnv(sink) });
        expect(listing.code, listing.stderr).toBe(0);
        expect(listing.stdout).toMatch(/^3 notifications waiting, [1-3] of them failed at least once/m);
        for (const id of ids) expect(listing.stdout).toContain(id);
        expect(listing.stdout).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
        expectCleanLog([listing.stdout], bodies);

        await sink.start();
        const received = await sink.waitFor(3, 300_000);
        expect(received.map(leadOf).sort()).toEqual([...ids].sort());
        const after = await leads(server.databaseUrl, ['outbox'], { ...mailEnv(sink) });
        expect(after.stdout).toContain('Nothing is waiting');
        expectCleanLog(server.logs, bodies);
      } finally {
        await server.dispose();
        await sink.stop();
        await db.drop();
      }
    });
  });
}

describe("the office's e-mail through a crash, beside another instance, and against a hostile name", () => {
  it('delivers every pending message after the server was killed with SIGKILL and started again', async () => {
    const sink = await smtpSink({ listening: false });
    const dir = mkdtempSync(join(tmpdir(), 'mail-kill-'));
    let server = await startServer({ dir, env: mailEnv(sink) });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push(await submit(server, i % 2 ? contact() : quote()));
      await logged(server, (l) => l.includes('office e-mail failed'));
      expect(await server.stop('SIGKILL')).toBeNull();

      await sink.start();
      server = await startServer({ dir, env: mailEnv(sink) });
      const received = await sink.waitFor(4, 120_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(received.map(leadOf).sort()).toEqual([...ids].sort());
      expect(JSON.parse(await logged(server, (l) => l.includes('"msg":"office e-mail outbox"')))).toMatchObject({ waiting: expect.any(Number) });
    } finally {
      await server.dispose();
      await sink.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!postgresAvailable())('sends each message once from two instances sharing PostgreSQL', async () => {
    const sink = await smtpSink();
    const schema = await createSchema();
    const env = { ...mailEnv(sink), DATABASE_URL: schema.url };
    const [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
    try {
      const ids = await Promise.all(Array.from({ length: 24 }, (_, i) => submit(i % 2 ? a : b, i % 3 ? quote() : contact())));
      const received = await sink.waitFor(24, 120_000);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(received).toHaveLength(24);
      expect(received.map(leadOf).sort()).toEqual([...ids].sort());
      const sentBy = (s: RunningServer) => s.logs.filter((l) => l.includes('"msg":"office e-mail sent"')).length;
      await expect.poll(() => sentBy(a) + sentBy(b)).toBe(24);
    } finally {
      await Promise.all([a.dispose(), b.dispose()]);
      await sink.stop();
      await schema.drop();
    }
  });

  it('keeps answering submissions while the mail server holds the connection and never answers', async () => {
    // A mail server that accepts the connection and says nothing: the sender waits for its greeting.
    const held = new Set<Socket>();
    const silent = createServer((socket) => held.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const sink = await smtpSink({ listening: false });
    const server = await startServer({ env: { ...mailEnv(sink), SMTP_URL: `smtp://127.0.0.1:${port}` } });
    try {
      await submit(server, quote());
      while (held.size === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      // While the sender waits on that connection, submissions are answered as ever.
      for (let i = 0; i < 10; i++) await submit(server, i % 2 ? contact() : quote());
      expect([...held].some((socket) => !socket.destroyed)).toBe(true);
      // On a slow machine the ten may outlast the sender's 10 s wait for a greeting: that failure is the sender's own, and allowed.
      expect(server.logs.filter((l) => l.includes('office e-mail failed') && !/greeting/i.test(l))).toEqual([]);
    } finally {
      await server.dispose();
      for (const socket of held) socket.destroy();
      silent.close();
    }
  });

  it('adds no header from a name with line breaks that reached the store', async () => {
    const sink = await smtpSink();
    const dir = mkdtempSync(join(tmpdir(), 'mail-header-'));
    // Validation refuses such a name today; a lead stored by an older version, or by hand, may hold one.
    const v = validateLead(quote({ name: 'Jane Doe' }));
    if (!v.ok) throw new Error('fixture');
    const lead = toLeadRecord(v.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.9', userAgent: 'test', now: new Date() });
    lead.fields.name = 'Jane\r\nBcc: intruder@example.com\r\nX-Injected: yes';
    const store = openSqliteStore(join(dir, 'leads.sqlite'), { groupCommit: true, outbox: true });
    await store.submit(lead, undefined);
    await store.close();
    const server = await startServer({ dir, env: mailEnv(sink) });
    try {
      const [mail] = await sink.waitFor(1);
      expect(mail!.envelope.to).toEqual(OFFICE);
      expect(mail!.raw.slice(0, mail!.raw.indexOf('\r\n\r\n'))).not.toMatch(/^(Bcc|X-Injected):/im);
      expect(mail!.parsed.headers.has('x-injected')).toBe(false);
      expect(mail!.parsed.subject).toBe(`Quote request ${lead.reference} from Jane Bcc: intruder@example.com X-Injected: yes`);
    } finally {
      await server.dispose();
      await sink.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows a name that looks like an RFC 2047 encoded word as the characters typed, through a real mail server', async () => {
    const sink = await smtpSink();
    const server = await startServer({ env: mailEnv(sink) });
    try {
      const names = ['=?UTF-8?Q?Jane_Doe=E2=80=AE=0D=0AX-Fake:_yes=E2=80=AC_URGENT?=', '=?UTF-8?B?Q0VPIDxjZW9AZXhhbXBsZS1jbGVhbmluZy5jb20+?='];
      const bodies = names.map((name) => quote({ name }));
      const ids: string[] = [];
      for (const body of bodies) ids.push(await submit(server, body));
      const received = await sink.waitFor(2);
      for (const [i, name] of names.entries()) {
        const mail = received.find((m) => leadOf(m) === ids[i])!;
        expect(mail.parsed.subject).toBe(`Quote request ${references.get(ids[i]!)} from ${name}`);
        expect(mail.parsed.replyTo?.value).toEqual([{ name, address: String(bodies[i]!.email) }]);
        expect(mail.parsed.text).toContain(`\nName: ${name}\n`);
        expect(mail.parsed.headers.has('x-fake')).toBe(false);
        expect(mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'))).not.toMatch(/^X-Fake:/im);
      }
      expectCleanLog(server.logs, bodies);
    } finally {
      await server.dispose();
      await sink.stop();
    }
  });

  it('refuses to start on a bad mail setting, naming the variable and never the password', async () => {
    const sink = await smtpSink({ listening: false });
    const attempt = startServer({ env: { ...mailEnv(sink), SMTP_URL: 'smtp://leads:hunter2-secret@mail.example.com/inbox', MAIL_FROM: '' } });
    const err = (await attempt.then(
      () => undefined,
      (e: Error) => e,
    ))!;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/SMTP_URL: must be smtp:\/\//);
    expect(err.message).toMatch(/MAIL_FROM: is needed with SMTP_URL/);
    expect(err.message).not.toContain('hunter2');
  });
});
