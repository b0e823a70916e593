/**
 * Erased means erased, to the byte: after a person's leads are deleted on request (or purged past
 * retention), nothing of them is left in the SQLite file, its write-ahead log, or any backup made
 * afterwards; a store written before erasure erased is cleaned once when it is opened; a deletion
 * record keeps nothing from which the identifier can be recovered; and PostgreSQL's own backups
 * (`pg_dump`) hold nothing of a deleted person.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { deletePerson, personOf, purge, purgeCutoffs, PURGE_STEP_ROWS } from '../../src/leads/retention.ts';
import type { LeadStore } from '../../src/leads/store.ts';
import { validateLead, type ValidLead } from '../../src/leads/validate.ts';
import pg from 'pg';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.ts';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { backupSqliteFile } from '../../src/store/sqlite-backup.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { createLogger } from '../../src/app/logger.ts';
import { Writable } from 'node:stream';
import { quote } from '../support/fixtures.ts';
import { createSchema, POSTGRES_BASE, postgresAvailable, TEST_POSTGRES } from '../support/services.ts';

/** A person whose every detail is a string found nowhere else. */
const ZELDA = {
  name: 'Zelda Quixotewright',
  email: 'zq.erasure.token@example.com',
  phone: '(503) 555-0177',
  notes: 'NOTE-TOKEN-5be1 the blue door behind the quince tree',
  userAgent: 'UA-TOKEN-Quixote/1.0',
};
const TRACES = ['Quixotewright', 'zq.erasure.token', '5035550177', 'NOTE-TOKEN-5be1', 'UA-TOKEN-Quixote'];

const valid = (body: unknown): ValidLead => {
  const v = validateLead(body);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.lead;
};
const meta = (now = new Date(), userAgent = 'test') => ({
  receivedVia: '/api/v1/leads',
  channel: 'api' as const,
  clientAddress: '198.51.100.7',
  userAgent,
  now,
});

/** Which traces of Zelda the bytes of `files` still hold. */
function tracesIn(...files: string[]): string[] {
  const bytes = Buffer.concat(files.filter((f) => existsSync(f)).map((f) => readFileSync(f)));
  return TRACES.filter((t) => bytes.includes(Buffer.from(t)));
}

/** What the store writes to standard error from now on, kept from the test's output. */
function collectStderr() {
  const written: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  return {
    lines: () =>
      written
        .join('')
        .split('\n')
        .filter((l) => l !== ''),
    restore: () => spy.mockRestore(),
  };
}

async function submitZelda(store: LeadStore, now = new Date()) {
  await store.submit(toLeadRecord(valid(quote({ name: ZELDA.name, email: ZELDA.email, phone: ZELDA.phone, notes: ZELDA.notes })), meta(now, ZELDA.userAgent)), {
    key: `zelda-${now.getTime()}`,
    requestHash: 'h',
  });
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'erasure-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite: a person deleted on request', () => {
  it('leaves no byte of theirs in the store, its write-ahead log, or a backup made afterwards', async () => {
    const path = join(dir, 'leads.sqlite');
    const store = openSqliteStore(path);
    await submitZelda(store);
    for (let i = 0; i < 20; i++) await store.submit(toLeadRecord(valid(quote()), meta()), undefined);
    expect(tracesIn(path, `${path}-wal`)).not.toEqual([]);
    const removed = await deletePerson(store, personOf('email', ZELDA.email)!, { dryRun: false });
    expect(removed.leads).toBe(1);
    // While the server still has the store open, as the office's command runs beside it.
    expect(tracesIn(path, `${path}-wal`)).toEqual([]);
    await backupSqliteFile(path, join(dir, 'after.sqlite'));
    expect(tracesIn(join(dir, 'after.sqlite'))).toEqual([]);
    await store.close();
    expect(tracesIn(path, `${path}-wal`)).toEqual([]);
  });

  it('leaves no byte of a ticked lead when the office keeps another one with the same e-mail unticked', async () => {
    const path = join(dir, 'leads.sqlite');
    const store = openSqliteStore(path);
    await submitZelda(store);
    // Someone else who used Zelda's address (a shared family mailbox): kept.
    await store.submit(toLeadRecord(valid(quote({ name: 'Kept Keeper', email: ZELDA.email, phone: '(503) 555-0178' })), meta()), undefined);
    const match = personOf('email', ZELDA.email)!;
    const zelda = (await store.personLeads(match)).find((l) => l.fields.name === ZELDA.name)!;
    const removed = await store.deletePerson(match, { kind: 'email', deletedAt: new Date() }, undefined, { leads: [zelda.id], suspectedSpam: [] });
    expect(removed).toMatchObject({ leads: 1, kept: { leads: 1, suspectedSpam: 0 } });
    // Only the address both leads carry is left, with the kept lead.
    expect(tracesIn(path, `${path}-wal`)).toEqual(['zq.erasure.token']);
    expect((await store.personLeads(match)).map((l) => l.fields.name)).toEqual(['Kept Keeper']);
    await store.close();
  });

  it("empties the write-ahead log as soon as a reader that held it off has ended, saying so as warnings in the service's log", async () => {
    const path = join(dir, 'leads.sqlite');
    let logged = '';
    const sink = new Writable({ write: (chunk, _encoding, done) => ((logged += String(chunk)), done()) });
    const store = openSqliteStore(path, { groupCommit: true, log: createLogger('info', sink) });
    const lines = () =>
      logged
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { level: number; msg: string });
    await submitZelda(store);
    const stderr = collectStderr();
    // The office's command or a backup, in another process, in the middle of a read transaction on the same file.
    const reader = new DatabaseSync(path);
    try {
      reader.exec('BEGIN');
      expect(reader.prepare('SELECT count(*) AS n FROM leads').get()).toEqual({ n: 1 });
      const started = performance.now();
      const removed = await deletePerson(store, personOf('email', ZELDA.email)!, { dryRun: false });
      expect(removed.leads).toBe(1);
      // It tried again for a moment before answering (20, 50, 100, 250 and 500 ms), then left it to the background.
      expect(performance.now() - started).toBeGreaterThanOrEqual(900);
      expect(tracesIn(`${path}-wal`), 'the reader keeps the deleted lead in the log').not.toEqual([]);
      // A warning in the service's log, in its format, with what the operator can do; nothing bypasses it.
      expect(lines()).toEqual([
        expect.objectContaining({ level: 40, msg: expect.stringMatching(/could not empty the write-ahead log after a deletion.*end the other program/) }),
      ]);
      expect(stderr.lines()).toEqual([]);

      reader.exec('COMMIT');
      // Nothing else touches the store: its own background attempt empties the log.
      await vi.waitFor(() => expect(tracesIn(path, `${path}-wal`)).toEqual([]), { timeout: 60_000, interval: 50 });
      expect(lines()[1]).toMatchObject({ level: 30, msg: expect.stringContaining('the write-ahead log is now emptied') });
      expect(TRACES.filter((t) => logged.includes(t))).toEqual([]);
    } finally {
      stderr.restore();
      reader.close();
      await store.close();
    }
  });

  it('says nothing when a reader ends within the moment the deletion waits: the log is emptied before it answers', async () => {
    const path = join(dir, 'leads.sqlite');
    let logged = '';
    const sink = new Writable({ write: (chunk, _encoding, done) => ((logged += String(chunk)), done()) });
    const store = openSqliteStore(path, { groupCommit: true, log: createLogger('info', sink) });
    await submitZelda(store);
    // The running service reading a page of an export, on a busy machine: a read of a tenth of a second.
    const reader = new DatabaseSync(path);
    try {
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) AS n FROM leads').get();
      setTimeout(() => reader.exec('COMMIT'), 100);
      await deletePerson(store, personOf('email', ZELDA.email)!, { dryRun: false });
      expect(tracesIn(path, `${path}-wal`)).toEqual([]);
      expect(logged).toBe('');
    } finally {
      reader.close();
      await store.close();
    }
  });

  it('empties the write-ahead log when the store closes, if a reader held it off until then', async () => {
    const path = join(dir, 'leads.sqlite');
    const store = openSqliteStore(path);
    await submitZelda(store);
    const stderr = collectStderr();
    const reader = new DatabaseSync(path);
    try {
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) AS n FROM leads').get();
      await deletePerson(store, personOf('phone', ZELDA.phone)!, { dryRun: false });
      expect(tracesIn(`${path}-wal`)).not.toEqual([]);
      reader.exec('COMMIT');
      // Closed before the first background attempt; the reader's connection stays open, so closing
      // the store's does not empty the log by itself.
      await store.close();
      expect(tracesIn(path, `${path}-wal`)).toEqual([]);
      expect(stderr.lines().at(-1)).toContain('the write-ahead log is now emptied');
    } finally {
      stderr.restore();
      reader.close();
    }
  });

  it('leaves no byte behind when the leads are purged past retention either', async () => {
    const path = join(dir, 'leads.sqlite');
    const store = openSqliteStore(path);
    const longAgo = new Date(Date.now() - 800 * 86_400_000);
    await submitZelda(store, longAgo);
    await store.submit(toLeadRecord(valid(quote()), meta()), undefined);
    const purged = await purge(store, purgeCutoffs(new Date(), 730));
    expect(purged.leads).toBe(1);
    expect(tracesIn(path, `${path}-wal`)).toEqual([]);
    await store.close();
  });

  it('leaves no byte behind when a purge takes several steps and its last step finds nothing left', async () => {
    const path = join(dir, 'leads.sqlite');
    const store = openSqliteStore(path);
    // Zelda the oldest, in the purge's first step; two full steps in all, so the last one removes nothing.
    await submitZelda(store, new Date(Date.now() - 900 * 86_400_000));
    for (let i = 1; i < 2 * PURGE_STEP_ROWS; i++)
      await store.submit(toLeadRecord(valid(quote()), meta(new Date(Date.now() - (800 - i / 100) * 86_400_000))), undefined);
    await store.submit(toLeadRecord(valid(quote()), meta()), undefined);
    const purged = await purge(store, purgeCutoffs(new Date(), 730));
    expect(purged.leads).toBe(2 * PURGE_STEP_ROWS);
    expect(tracesIn(path, `${path}-wal`)).toEqual([]);
    await store.close();
  });

  it('keeps a deletion record with no identifier, hashed or not, and no key to one', async () => {
    const path = join(dir, 'leads.sqlite');
    const store = openSqliteStore(path);
    await submitZelda(store);
    await deletePerson(store, personOf('phone', ZELDA.phone)!, { dryRun: false, now: new Date('2026-11-23T10:00:00Z') });
    expect(await store.deletionRecords()).toEqual([{ kind: 'phone', deletedAt: new Date('2026-11-23T10:00:00Z'), leads: 1 }]);
    await store.close();
    const db = new DatabaseSync(path, { readOnly: true });
    expect((db.prepare('SELECT * FROM deletion_records').all() as object[]).map((r) => Object.keys(r).sort())).toEqual([
      ['deleted_at', 'id', 'identifier_kind', 'lead_count'],
    ]);
    expect(db.prepare("SELECT count(*) AS n FROM secrets WHERE name = 'deletion-records'").get()).toEqual({ n: 0 });
    db.close();
  });
});

describe('SQLite: a store written before erasure erased', () => {
  it("is cleaned once when opened: no deleted row's bytes, no identifier hash, no key", async () => {
    const path = join(dir, 'old.sqlite');
    // The store as the earlier code left it: migrations 1 to 4, secure_delete off, a person deleted.
    const old = new DatabaseSync(path);
    old.exec('PRAGMA journal_mode = WAL; PRAGMA secure_delete = OFF;');
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    for (const m of SQLITE_MIGRATIONS.filter((m) => m.version <= 4)) {
      old.exec(m.sql);
      old.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, '2026-11-01T00:00:00Z');
    }
    const fields = JSON.stringify({ name: ZELDA.name, email: ZELDA.email, phone: ZELDA.phone, notes: ZELDA.notes });
    old
      .prepare('INSERT INTO leads VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(
        'lead-zelda',
        'quote',
        '2026-11-01T00:00:00Z',
        '/api/v1/leads',
        fields,
        '+15035550177',
        ZELDA.email,
        'fp',
        JSON.stringify({ userAgent: ZELDA.userAgent }),
      );
    old.prepare("INSERT INTO secrets VALUES ('deletion-records', ?, '2026-11-01T00:00:00Z')").run(Buffer.alloc(32, 7));
    old
      .prepare(
        "INSERT INTO deletion_records (identifier_hash, identifier_kind, deleted_at, lead_count) VALUES ('a1b2c3d4e5f6', 'email', '2026-11-02T00:00:00Z', 1)",
      )
      .run();
    old.exec("DELETE FROM leads WHERE id = 'lead-zelda'; PRAGMA wal_checkpoint(TRUNCATE);");
    old.close();
    expect(tracesIn(path), 'the old code left the deleted lead in free pages').not.toEqual([]);
    const store = openSqliteStore(path);
    await store.close();
    expect(tracesIn(path, `${path}-wal`)).toEqual([]);
    expect(readFileSync(path).includes(Buffer.from('a1b2c3d4e5f6'))).toBe(false);
    const db = new DatabaseSync(path, { readOnly: true });
    expect(db.prepare("SELECT count(*) AS n FROM secrets WHERE name = 'deletion-records'").get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT identifier_kind, lead_count FROM deletion_records').all()).toEqual([{ identifier_kind: 'email', lead_count: 1 }]);
    db.close();
  });
});

describe.skipIf(!postgresAvailable())('PostgreSQL: a person deleted on request', () => {
  it('is in no pg_dump made afterwards, and the deletion record keeps no identifier', async () => {
    const schema = await createSchema();
    try {
      const store = await openPostgresStore(schema.url, TEST_POSTGRES);
      await submitZelda(store);
      await store.submit(toLeadRecord(valid(quote()), meta()), undefined);
      await deletePerson(store, personOf('email', ZELDA.email)!, { dryRun: false });
      await store.close();
      const dump = execFileSync('pg_dump', ['--schema', schema.name, '--data-only', POSTGRES_BASE], { maxBuffer: 64 * 1024 * 1024 });
      expect(TRACES.filter((t) => dump.includes(Buffer.from(t)))).toEqual([]);
      const columns = execFileSync('psql', [
        '-At',
        '-c',
        `SELECT column_name FROM information_schema.columns WHERE table_schema = '${schema.name}' AND table_name = 'deletion_records' ORDER BY 1`,
        POSTGRES_BASE,
      ])
        .toString()
        .trim()
        .split('\n');
      expect(columns).toEqual(['deleted_at', 'id', 'identifier_kind', 'lead_count']);
    } finally {
      await schema.drop();
    }
  });
});

describe.skipIf(!postgresAvailable())('PostgreSQL: a store written before erasure erased', () => {
  const HASH = '9f3c1e7a5d2b4c6e8f0a1b3c5d7e9f1a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e';

  /** A fresh schema as the earlier code left it: migrations 1 to 4, recorded as the runner records them, a hashed deletion record and its key. */
  async function storeAtVersion4() {
    const schema = await createSchema();
    const c = new pg.Client({ connectionString: schema.url });
    await c.connect();
    await c.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    for (const m of POSTGRES_MIGRATIONS.filter((m) => m.version <= 4)) {
      await c.query(m.sql);
      await c.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
    }
    await c.query("INSERT INTO secrets VALUES ('deletion-records', $1, now()), ('web-form-token', $2, now())", [Buffer.alloc(32, 7), Buffer.alloc(32, 9)]);
    await c.query("INSERT INTO deletion_records (identifier_hash, identifier_kind, deleted_at, lead_count) VALUES ($1, 'phone', '2026-11-02T00:00:00Z', 2)", [
      HASH,
    ]);
    return { schema, c };
  }

  /**
   * Whether the current version of any row in `deletion_records`' heap pages holds the hash's bytes
   * (with the `pageinspect` extension: a dropped column is out of SQL's reach, not out of the page).
   */
  async function liveRowsHoldHash(c: pg.Client): Promise<boolean> {
    const { rows } = await c.query<{ holds: boolean }>(
      `SELECT coalesce(bool_or(position(convert_to($1, 'UTF8') IN t.t_data) > 0), false) AS holds
         FROM generate_series(0, pg_relation_size('deletion_records') / current_setting('block_size')::int - 1) AS block,
              heap_page_items(get_raw_page('deletion_records', block::int)) AS t
        WHERE t.lp_flags = 1 AND t.t_xmax = 0`,
      [HASH],
    );
    return rows[0]!.holds;
  }

  it("is migrated on opening: no live row keeps the identifier's hash, and its key is gone", async (ctx) => {
    const { schema, c } = await storeAtVersion4();
    try {
      const inspect = await c
        .query(`CREATE EXTENSION IF NOT EXISTS pageinspect SCHEMA ${schema.name}`)
        .then(() => true)
        .catch(() => false);
      if (inspect) expect(await liveRowsHoldHash(c), 'the heap holds the hash before the migration').toBe(true);

      const store = await openPostgresStore(schema.url, TEST_POSTGRES);
      await store.close();

      expect((await c.query('SELECT version FROM schema_migrations ORDER BY version')).rows.map((r) => r.version)).toEqual(
        POSTGRES_MIGRATIONS.map((m) => m.version),
      );
      expect((await c.query('SELECT identifier_kind, lead_count FROM deletion_records')).rows).toEqual([{ identifier_kind: 'phone', lead_count: 2 }]);
      expect((await c.query('SELECT name FROM secrets ORDER BY name')).rows).toEqual([{ name: 'web-form-token' }]);
      // DROP COLUMN only hides the column: without the UPDATE before it, the row would still carry the hash.
      if (!inspect) ctx.skip('the pageinspect extension could not be created: the heap was not read');
      expect(await liveRowsHoldHash(c)).toBe(false);
    } finally {
      await c.end();
      await schema.drop();
    }
  });

  it("blanks every hash before dropping the column, in migration 5's own statements", async () => {
    const { schema, c } = await storeAtVersion4();
    try {
      const [blank, drop, ...rest] = POSTGRES_MIGRATIONS.find((m) => m.version === 5)!
        .sql.split(';')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      await c.query(blank!);
      expect((await c.query('SELECT identifier_hash FROM deletion_records')).rows).toEqual([{ identifier_hash: '' }]);
      await c.query(drop!);
      for (const statement of rest) await c.query(statement);
      expect(drop).toMatch(/DROP COLUMN identifier_hash/);
    } finally {
      await c.end();
      await schema.drop();
    }
  });
});
