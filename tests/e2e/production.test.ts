/**
 * Production on one machine, against the built server: backups taken while leads keep coming
 * (by hand and on a schedule), restoring one by docs/office.md's steps, a backup directory that cannot
 * be written, PostgreSQL's refusal, the systemd unit in deploy/, and HTTPS through the nginx
 * configuration in deploy/. No timing is asserted.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { BACKUP_FILE } from '../../src/jobs/backups.ts';
import { newClient, quote } from '../support/fixtures.ts';
import { decode, textPaths } from '../support/codings.ts';
import { call, postJson, rawRequest } from '../support/http.ts';
import { nginxAvailable, runNginx } from '../support/nginx.ts';
import { childEnv, exportLeads, freePort, leads, ROOT, startServer, type RunningServer } from '../support/server.ts';
import { canMountTmpfs, mountTmpfs } from '../support/services.ts';

const env = { TRUST_PROXY: '127.0.0.1, ::1' };

/** Submitters that post leads until stopped, each from a client of its own; the ids of every 201, in order. */
function submitContinuously(url: string, submitters = 4) {
  const acked: string[] = [];
  let stopped = false;
  const loops = Array.from({ length: submitters }, async () => {
    while (!stopped) {
      const reply = await postJson(`${url}/api/v1/leads`, quote(), newClient());
      if (reply.status === 201) acked.push(reply.json.id);
      else throw new Error(`a submission was answered ${reply.status}: ${reply.text}`);
    }
  });
  return {
    acked,
    async waitFor(count: number) {
      while (acked.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** What a backup file holds, read as a plain SQLite database. */
function inspect(file: string) {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return {
      integrity: (db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>).map((r) => r.integrity_check),
      journalMode: (db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode,
      ids: (db.prepare('SELECT id FROM leads').all() as Array<{ id: string }>).map((r) => r.id),
    };
  } finally {
    db.close();
  }
}

/** A restore as docs/office.md has it: the server stopped, the old store's -wal and -shm out of the way, the backup in its place. */
function restore(backup: string, store: string): void {
  for (const suffix of ['-wal', '-shm']) rmSync(`${store}${suffix}`, { force: true });
  copyFileSync(backup, store);
}

const logged = async (server: RunningServer, msg: string) => {
  for (let i = 0; i < 3_000; i++) {
    const line = server.logs.find((l) => l.includes(`"msg":"${msg}"`));
    if (line) return JSON.parse(line);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no "${msg}" line:\n${server.logs.join('\n')}`);
};

describe('a backup by hand while leads keep coming, and a restore from it', () => {
  let dir: string;
  let server: RunningServer;
  let backup: string;
  let before: string[];
  let acked: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'backup-'));
    server = await startServer({ dir, env });
  });
  afterAll(async () => {
    await server?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is consistent, passes integrity_check and holds every lead acknowledged before it began', async () => {
    const load = submitContinuously(server.url);
    await load.waitFor(60);
    before = [...load.acked];
    backup = join(dir, 'leads-by-hand.sqlite');
    const made = await leads(server.databaseUrl, ['backup', backup]);
    await load.waitFor(before.length + 60);
    await load.stop();
    acked = load.acked;

    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^Backed up \d+ leads to .*leads-by-hand\.sqlite \(\d+\.\d MiB\), checked with PRAGMA integrity_check\.$/m);
    const copy = inspect(backup);
    expect(copy.integrity).toEqual(['ok']);
    // One self-contained file: no write-ahead log beside it to lose when it is copied.
    expect(copy.journalMode).toBe('delete');
    expect(readdirSync(dir).filter((n) => n.includes('leads-by-hand'))).toEqual(['leads-by-hand.sqlite']);
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    const inBackup = new Set(copy.ids);
    expect(before.filter((id) => !inBackup.has(id))).toEqual([]);
    // Nothing in it that was not acknowledged (the submissions went on while it was made).
    const all = new Set(acked);
    expect(copy.ids.filter((id) => !all.has(id))).toEqual([]);
    expect(acked.length).toBeGreaterThan(copy.ids.length);
  });

  it('restores: the server stopped, the backup put in place and started again, every lead in it is exported, and new ones are taken', async () => {
    await server.stop();
    const store = join(dir, 'leads.sqlite');
    restore(backup, store);
    server = await startServer({ dir, env });
    const exported = (await exportLeads(server.databaseUrl)).map((l) => l.id);
    expect(exported.sort()).toEqual(inspect(backup).ids.sort());
    expect((await postJson(`${server.url}/api/v1/leads`, quote(), newClient())).status).toBe(201);
  });

  it('restores a backup made before the latest migrations: they run at start-up', async () => {
    await server.stop();
    const older = join(dir, 'older.sqlite');
    copyFileSync(backup, older);
    const db = new DatabaseSync(older);
    const latest = (db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number }).v;
    // As a backup taken before the outbox existed would be (and before deletion records lost their
    // hash, leads had a short reference and a ZIP code, and the office had its page, its searches, a
    // search that forgives, roles, notes and owners, changes held through a sign-in, the indexes of the inbox at a glance,
    // the counts by status the database keeps, the promise and first contact of each lead, the accounts' opaque ids, the days' counts
    // and the index of the leads without an answer-by, the attempts, and the team's load and its marks).
    db.exec(
      `DROP TABLE lead_given_marks; DROP INDEX leads_held_waiting; DROP INDEX leads_first_contacts;
       DROP TABLE lead_attempts; DROP INDEX leads_without_answer_by; DROP TRIGGER lead_day_counted; DROP TRIGGER lead_day_uncounted; DROP TRIGGER lead_day_recounted; DROP INDEX leads_unkept;
       DROP TABLE lead_days; DROP TABLE lead_days_waiting; DROP TABLE lead_days_contacted; DROP TABLE office_clock;
       ALTER TABLE leads DROP COLUMN received_day; ALTER TABLE leads DROP COLUMN chart_service; ALTER TABLE leads DROP COLUMN first_contact_minutes;
       DROP INDEX leads_waiting; ALTER TABLE leads DROP COLUMN answer_by; ALTER TABLE leads DROP COLUMN first_contact_at;
       ALTER TABLE leads DROP COLUMN first_contact_by;
       DROP TRIGGER lead_counted; DROP TRIGGER lead_uncounted; DROP TRIGGER lead_recounted; DROP TABLE lead_status_counts;
       DROP INDEX leads_by_status; DROP TABLE office_held_changes;
       DROP TABLE lead_notes; DROP INDEX leads_by_owner; ALTER TABLE leads DROP COLUMN owner;
       DROP INDEX leads_by_search; ALTER TABLE leads DROP COLUMN search_text; DROP INDEX leads_by_postal_code; ALTER TABLE leads DROP COLUMN postal_code; ALTER TABLE leads DROP COLUMN in_service_area;
       DROP TABLE outbox; ALTER TABLE deletion_records ADD COLUMN identifier_hash TEXT NOT NULL DEFAULT '';
       DROP INDEX leads_by_reference; ALTER TABLE leads DROP COLUMN reference;
       DROP TABLE office_searches; DROP TABLE office_sessions; DROP TABLE office_users; DROP TABLE suspected_spam; DROP TABLE office_audit;
       ALTER TABLE leads DROP COLUMN status; ALTER TABLE leads DROP COLUMN status_by; ALTER TABLE leads DROP COLUMN status_at;
       DELETE FROM schema_migrations WHERE version >= 4;`,
    );
    db.close();
    restore(older, join(dir, 'leads.sqlite'));
    server = await startServer({ dir, env });
    const restored = await exportLeads(server.databaseUrl);
    expect(restored.map((l) => l.id).sort()).toEqual(inspect(backup).ids.sort());
    // Each lead stored before references got one of its own, and before answer-by instants were kept, its instant.
    expect(new Set(restored.map((l) => l.reference)).size).toBe(restored.length);
    expect(restored.filter((l) => typeof l.answerBy !== 'string')).toEqual([]);
    const migrated = new DatabaseSync(join(dir, 'leads.sqlite'), { readOnly: true });
    expect((migrated.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number }).v).toBe(latest);
    migrated.close();
  });

  it('refuses a directory that does not exist, leaving nothing behind', async () => {
    const made = await leads(server.databaseUrl, ['backup', join(dir, 'no-such-dir', 'x.sqlite')]);
    expect(made.code).toBe(1);
    expect(made.stderr).toMatch(/^leads backup: cannot write the backup into .*no-such-dir \(ENOENT\)$/m);
  });
});

describe('scheduled backups', () => {
  it('writes one at start-up under continuous submissions and keeps the newest BACKUP_KEEP, leaving other files alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scheduled-'));
    const backups = join(dir, 'backups');
    mkdirSync(backups);
    const old = ['leads-20250101T000000Z.sqlite', 'leads-20250201T000000Z.sqlite', 'leads-20250301T000000Z.sqlite'];
    for (const name of [...old, 'notes.txt']) writeFileSync(join(backups, name), 'not a backup of this test');
    writeFileSync(join(backups, '.leads-20250301T000000Z.sqlite.0badc0de.partial'), 'what a stopped backup left');
    const settings = { ...env, BACKUP_DIR: backups, BACKUP_KEEP: '2' };
    let server = await startServer({ dir, env: settings });
    try {
      const first = await logged(server, 'backup done');
      expect(first).toMatchObject({ removed: 2, keep: 2 });
      expect(readdirSync(backups).sort()).toEqual([old[2], basename(first.path), 'notes.txt'].sort());

      const load = submitContinuously(server.url, 2);
      await load.waitFor(40);
      await load.stop();
      await server.stop();
      // The next start makes the next one (in another second, so under another name).
      await new Promise((resolve) => setTimeout(resolve, 1100));
      server = await startServer({ dir, env: settings });
      const second = await logged(server, 'backup done');
      const kept = readdirSync(backups)
        .filter((n) => BACKUP_FILE.test(n))
        .sort();
      expect(kept).toEqual([basename(first.path), basename(second.path)].sort());
      const copy = inspect(second.path);
      expect(copy.integrity).toEqual(['ok']);
      expect(copy.ids.length).toBe(second.leads);
      expect(second.leads).toBeGreaterThanOrEqual(40);
    } finally {
      await server.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!canMountTmpfs())('logs a clear message when BACKUP_DIR cannot be written, and keeps serving', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'readonly-'));
    const backups = join(dir, 'backups');
    mkdirSync(backups);
    const unmount = mountTmpfs(backups, 1024, { readOnly: true });
    const server = await startServer({ dir, env: { ...env, BACKUP_DIR: backups } });
    try {
      const failed = await logged(server, 'backup failed; it will be tried again');
      expect(failed).toMatchObject({ level: 50, dir: backups, retryInMs: 15 * 60 * 1000 });
      expect(failed.err.message).toBe(`cannot write the backup into ${backups} (EROFS)`);
      expect((await postJson(`${server.url}/api/v1/leads`, quote(), newClient())).status).toBe(201);
      expect((await call(`${server.url}/api/v1`)).status).toBe(200);
    } finally {
      await server.dispose();
      unmount();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is refused for PostgreSQL, by hand (exit 2, naming its own tools) and at start-up', async () => {
    const made = await leads('postgres://postgres@127.0.0.1:5432/test', ['backup', join(tmpdir(), 'never.sqlite')]);
    expect(made.code).toBe(2);
    expect(made.stderr).toMatch(/PostgreSQL, which is backed up with its own tools: pg_dump.*pg_basebackup/);
    expect(existsSync(join(tmpdir(), 'never.sqlite'))).toBe(false);
    const start = await startServer({ env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', BACKUP_DIR: join(tmpdir(), 'never') } }).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(start).toMatch(/BACKUP_DIR: scheduled backups are of the SQLite store; back PostgreSQL up with its own tools/);
  });
});

const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Whether systemd-analyze is installed; in CI its absence is a failure, not a skip. */
function systemdAnalyzeAvailable(): boolean {
  if (spawnSync('systemd-analyze', ['--version']).status === 0) return true;
  if (process.env.CI) throw new Error('CI requires systemd-analyze (apt-get install -y systemd)');
  console.warn('systemd-analyze is not installed: the systemd unit is not verified (apt-get install -y systemd)');
  return false;
}

describe.skipIf(!systemdAnalyzeAvailable())('the systemd unit in deploy/', () => {
  const unit = readFileSync(join(ROOT, 'deploy/lead-intake.service'), 'utf8');

  it('passes systemd-analyze verify without a warning', () => {
    // Installed as docs/operator.md says, with this checkout in /opt/lead-intake's place.
    const dir = mkdtempSync(join(tmpdir(), 'unit-'));
    const envFile = join(dir, 'env');
    copyFileSync(join(ROOT, 'deploy/lead-intake.env'), envFile);
    const installed = join(dir, 'lead-intake.service');
    writeFileSync(installed, unit.replaceAll('/opt/lead-intake', ROOT.replace(/\/$/, '')).replaceAll('/etc/lead-intake/env', envFile));
    const verified = spawnSync('systemd-analyze', ['verify', installed], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    expect(verified.stderr).toBe('');
    expect(verified.status).toBe(0);
  });

  it('starts the server as `npm start` does, restarts it on failure, and lets it stop gracefully', () => {
    // `npm start` execs the server (so that npm waits for it); the unit runs the same command without npm.
    const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start as string).replace(/^exec /, '');
    expect(unit).toContain(`ExecStart=/opt/lead-intake/node_modules/.bin/${start}\n`);
    for (const line of [
      'Restart=on-failure',
      'KillSignal=SIGTERM',
      'User=lead-intake',
      'StateDirectory=lead-intake',
      'ProtectSystem=strict',
      'NoNewPrivileges=yes',
    ])
      expect(unit).toContain(`\n${line}\n`);
  });

  it.skipIf(!canMountTmpfs())('needs no writable path but its data directory: the server runs with the application read-only and no home', async () => {
    // As under ProtectSystem=strict and ProtectHome=yes: the checkout bound read-only in a mount namespace of its own.
    const data = mkdtempSync(join(tmpdir(), 'readonly-app-'));
    const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start as string).replace(/^exec /, '');
    const root = ROOT.replace(/\/$/, '');
    const script = `mount --bind '${root}' '${root}' && mount -o remount,ro,bind '${root}' && cd '${root}' && ! touch .write-probe 2>/dev/null && exec node_modules/.bin/${start}`;
    const port = await freePort();
    const child = spawn('unshare', ['-m', 'sh', '-c', script], {
      env: {
        ...childEnv(),
        HOME: '/nonexistent',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: `file:${join(data, 'leads.sqlite')}`,
        BACKUP_DIR: join(data, 'backups'),
        TRUST_PROXY: '127.0.0.1, ::1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout!.on('data', (c) => (log += c));
    child.stderr!.on('data', (c) => (log += c));
    try {
      for (let i = 0; !log.includes('"msg":"backup done"'); i++) {
        if (i > 3_000 || child.exitCode !== null) throw new Error(`the server did not start read-only:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const url = `http://127.0.0.1:${port}`;
      expect((await call(`${url}/`)).status).toBe(200);
      expect((await call(`${url}/quote`)).status).toBe(200);
      expect((await postJson(`${url}/api/v1/leads`, quote(), newClient())).status).toBe(201);
      expect(existsSync(join(root, '.write-probe'))).toBe(false);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      rmSync(data, { recursive: true, force: true });
    }
    expect(child.exitCode).toBe(0);
    expect(log).not.toMatch(/"level":50/);
  });

  it('comes with settings a shell reads as systemd does, which the configuration accepts, with the store and backups in the one writable directory', () => {
    const sourced = execFileSync('sh', ['-c', `set -a; . '${join(ROOT, 'deploy/lead-intake.env')}'; env -0`], { env: {}, encoding: 'utf8' });
    const settings = Object.fromEntries(
      sourced
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
    const config = loadConfig(settings);
    expect(config).toMatchObject({
      siteUrl: 'https://www.example-cleaning.com',
      host: '127.0.0.1',
      port: 4321,
      database: { kind: 'sqlite', path: '/var/lib/lead-intake/leads.sqlite' },
      backups: { dir: '/var/lib/lead-intake/backups', intervalHours: 24, keep: 14 },
      mail: undefined,
    });
    expect(config.trustProxy?.check('127.0.0.1', 'ipv4')).toBe(true);
  });
});

describe.skipIf(!nginxAvailable())('HTTPS in front of one instance, with deploy/nginx/lead-intake.conf', () => {
  // The name the test gives the file's server blocks in place of www.example-cleaning.com.
  const NAME = 'localhost';
  const HSTS = 'max-age=31536000; includeSubDomains';
  let dir: string;
  let server: RunningServer;
  let proxy: { url: string; stop(): Promise<void> };
  let ca: Buffer;
  let httpsPort: number;
  let httpPort: number;

  /** A request over TLS to nginx on `port`, trusting the test's own certificate. */
  const https = (path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}, port = httpsPort) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port, servername: NAME, path, method: init.method ?? 'GET', ca, headers: { Host: `${NAME}:${port}`, ...init.headers } },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(init.body);
    });

  /** A request over TLS to nginx with exactly `headers`, its body as bytes (nothing decodes it on the way). */
  const httpsBytes = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port: httpsPort, servername: NAME, path, method, ca, headers: { Host: `${NAME}:${httpsPort}`, ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        },
      );
      req.on('error', reject);
      req.end();
    });

  /** A TLS handshake with nginx as a client limited by `options`: what was negotiated, or the error it ended in. */
  const handshake = (options: ConnectionOptions) =>
    new Promise<{ protocol: string | null; cipher: string; ticket: Buffer | undefined; session: Buffer | undefined; reused: boolean } | Error>((resolve) => {
      const socket = tlsConnect({ host: '127.0.0.1', port: httpsPort, servername: NAME, ca, ...options });
      let session: Buffer | undefined;
      socket.on('session', (s: Buffer) => (session = s));
      socket.on('error', resolve);
      socket.once('secureConnect', () => {
        // A TLS 1.2 server sends its ticket, if it issues one, before its Finished: it is here by now.
        const negotiated = {
          protocol: socket.getProtocol(),
          cipher: socket.getCipher().standardName,
          ticket: socket.getTLSTicket(),
          reused: socket.isSessionReused(),
        };
        // What happens to the connection after the handshake is not the question.
        socket.removeAllListeners('error').on('error', () => {});
        socket.once('close', () => resolve({ ...negotiated, session }));
        socket.end();
      });
    });

  /** Runs the repository's file with this machine's ports, name and certificate in place of the example's, in front of `upstream`. */
  async function startProxy(root: string, ports: { http: number; https: number }, upstream: number) {
    mkdirSync(root, { recursive: true });
    const site = readFileSync(join(ROOT, 'deploy/nginx/lead-intake.conf'), 'utf8')
      .replace(/^\s*listen \[::\]:.*\n/gm, '')
      .replace('listen 80;', `listen 127.0.0.1:${ports.http};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`)
      .replaceAll('server_name www.example-cleaning.com;', `server_name ${NAME};`)
      .replace(/ssl_certificate \S+;/, `ssl_certificate ${join(dir, 'cert.pem')};`)
      .replace(/ssl_certificate_key \S+;/, `ssl_certificate_key ${join(dir, 'key.pem')};`)
      .replace('root /var/www/certbot;', `root ${root};`)
      .replace('proxy_pass http://127.0.0.1:4321;', `proxy_pass http://127.0.0.1:${upstream};`);
    // Every directive naming the example's host must have been rewritten, or the test would run something else than the file.
    expect(site.replace(/#.*$/gm, '')).not.toContain('example-cleaning.com');
    writeFileSync(join(root, 'site.conf'), site);
    return runNginx(root, `  include ${join(root, 'site.conf')};`, `http://127.0.0.1:${ports.http}/`, (url) =>
      fetch(url, { redirect: 'manual' }).then(
        (r) => r.status === 301,
        () => false,
      ),
    );
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'https-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${NAME}`,
        '-addext',
        `subjectAltName=DNS:${NAME}`,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    ca = readFileSync(join(dir, 'cert.pem'));
    [httpsPort, httpPort] = [await freePort(), await freePort()];
    server = await startServer({ env: { SITE_URL: `https://${NAME}:${httpsPort}`, TRUST_PROXY: '127.0.0.1, ::1' } });
    proxy = await startProxy(join(dir, 'nginx'), { http: httpPort, https: httpsPort }, server.port);
  });
  afterAll(async () => {
    await proxy?.stop();
    await server?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('redirects plain HTTP to HTTPS, with nosniff', async () => {
    const reply = await rawRequest(`http://127.0.0.1:${httpPort}/quote?x=1`, { method: 'GET', headers: { Host: NAME } });
    expect(reply.status).toBe(301);
    expect(reply.headers.location).toBe(`https://${NAME}/quote?x=1`);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
  });

  it('redirects to its configured name, never to the Host a client sends', async () => {
    const reply = await rawRequest(`http://127.0.0.1:${httpPort}/quote?x=1`, { method: 'GET', headers: { Host: 'evil.example' } });
    expect(reply.status).toBe(301);
    expect(reply.headers.location).toBe(`https://${NAME}/quote?x=1`);
  });

  it('serves the API and the pages over TLS, with one HSTS and one nosniff, and links on the https origin', async () => {
    const status = await https('/api/v1');
    expect(status.status).toBe(200);
    // The service's own value, once: nginx sends it in place of the service's copy, not beside it.
    expect(status.headers['strict-transport-security']).toBe(HSTS);
    expect(status.headers['x-content-type-options']).toBe('nosniff');
    expect((await call(`${server.url}/api/v1`)).headers.get('strict-transport-security')).toBe(HSTS);
    expect(JSON.parse(status.text).links.leads).toBe(`https://${NAME}:${httpsPort}/api/v1/leads`);
    expect((await https('/quote')).status).toBe(200);
  });

  it('negotiates TLS 1.3, and TLS 1.2 only with ECDHE and an AEAD cipher: a client offering only a CBC suite (SHA-1 or SHA-384) or RSA key exchange is refused', async () => {
    expect(await handshake({})).toMatchObject({ protocol: 'TLSv1.3' });
    expect(await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-AES128-GCM-SHA256' })).toMatchObject({
      protocol: 'TLSv1.2',
      cipher: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
    });
    expect(await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-RSA-CHACHA20-POLY1305' })).toMatchObject({
      protocol: 'TLSv1.2',
      cipher: 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
    });
    for (const ciphers of ['ECDHE-RSA-AES128-SHA', 'ECDHE-RSA-AES256-SHA384', 'AES128-GCM-SHA256']) {
      const refused = await handshake({ maxVersion: 'TLSv1.2', ciphers });
      expect(refused, ciphers).toBeInstanceOf(Error);
      expect((refused as Error).message, ciphers).toMatch(/handshake failure/i);
    }
  });

  it('issues no TLS session tickets, and resumes a TLS 1.2 session from its own cache', async () => {
    const first = await handshake({ maxVersion: 'TLSv1.2' });
    if (first instanceof Error) throw first;
    expect(first.ticket).toBeUndefined();
    expect(first.session).toBeInstanceOf(Buffer);
    const again = await handshake({ maxVersion: 'TLSv1.2', session: first.session });
    expect(again).toMatchObject({ reused: true, ticket: undefined });
  });

  it('takes a lead, recording the address nginx saw rather than one the client claims', async () => {
    const created = await https('/api/v1/leads', {
      method: 'POST',
      body: JSON.stringify(quote()),
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.9' },
    });
    expect(created.status, created.text).toBe(201);
    const id = JSON.parse(created.text).id;
    const stored = (await exportLeads(server.databaseUrl)).find((l) => l.id === id) as { consent: { clientAddress: string } };
    expect(stored.consent.clientAddress).toBe('127.0.0.1');
  });

  it('lets the service answer an oversized body with its own problem', async () => {
    const big = await https('/api/v1/leads', {
      method: 'POST',
      body: JSON.stringify(quote({ notes: 'x'.repeat(30_000) })),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(big.status).toBe(413);
    expect(big.headers['content-type']).toBe('application/problem+json');
  });

  it("passes the service's codings through: each prerendered text file in Brotli and gzip decodes to the identity bytes, with its own ETag, 304 and Vary", async () => {
    let coded = 0;
    for (const path of textPaths()) {
      const identity = await httpsBytes(path);
      expect(identity.status, path).toBe(200);
      expect(identity.headers['content-encoding'], path).toBeUndefined();
      for (const coding of ['br', 'gzip'] as const) {
        const reply = await httpsBytes(path, { 'Accept-Encoding': coding });
        if (reply.headers['content-encoding'] === undefined) {
          expect(reply.body.equals(identity.body), path).toBe(true);
          continue;
        }
        coded++;
        expect(reply.headers['content-encoding'], path).toBe(coding);
        expect(reply.headers.vary, path).toBe('Accept-Encoding');
        expect(identity.headers.vary, path).toBe('Accept-Encoding');
        expect(decode[coding](reply.body).equals(identity.body), `${path} ${coding}`).toBe(true);
        // The service's own strong validator, not one nginx weakened or made.
        expect(reply.headers.etag, path).toMatch(/^"[\w-]+"$/);
        expect(reply.headers.etag, path).not.toBe(identity.headers.etag);
        const revalidated = await httpsBytes(path, { 'Accept-Encoding': coding, 'If-None-Match': String(reply.headers.etag) });
        expect(revalidated.status, path).toBe(304);
        expect(revalidated.headers.etag, path).toBe(reply.headers.etag);
        const head = await httpsBytes(path, { 'Accept-Encoding': coding }, 'HEAD');
        expect(head.headers['content-encoding'], path).toBe(coding);
        expect(head.body.length, path).toBe(0);
      }
      expect((await httpsBytes(path, { 'If-None-Match': String(identity.headers.etag) })).status, path).toBe(304);
      const refused = await httpsBytes(path, { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
      expect(refused.headers['content-encoding'], path).toBeUndefined();
      expect(refused.body.equals(identity.body), path).toBe(true);
    }
    expect(coded).toBeGreaterThanOrEqual(20);
  });

  it('sends HSTS and nosniff on the 413 nginx answers itself, for a body past its own limit', async () => {
    const huge = await https('/api/v1/leads', { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024), headers: { 'Content-Type': 'application/json' } });
    expect(huge.status).toBe(413);
    expect(huge.headers['content-type']).toBe('text/html');
    expect(huge.headers['strict-transport-security']).toBe(HSTS);
    expect(huge.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends HSTS and nosniff on the 502 nginx answers itself when the service is down', async () => {
    // The same file in front of a port nobody listens on.
    const ports = { http: await freePort(), https: await freePort() };
    const down = await startProxy(join(dir, 'nginx-down'), ports, await freePort());
    try {
      const reply = await https('/api/v1', {}, ports.https);
      expect(reply.status).toBe(502);
      expect(reply.headers['strict-transport-security']).toBe(HSTS);
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await down.stop();
    }
  });
});
