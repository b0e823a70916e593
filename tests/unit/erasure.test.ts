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
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { deletePerson, personOf, purge, purgeCutoffs } from '../../src/leads/retention.ts';
import type { LeadStore } from '../../src/leads/store.ts';
import { validateLead, type ValidLead } from '../../src/leads/validate.ts';
import { SQLITE_MIGRATIONS } from '../../src/store/migrations.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { backupSqliteFile } from '../../src/store/sqlite-backup.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { quote } from '../support/fixtures.ts';
import { createSchema, POSTGRES_BASE, postgresAvailable } from '../support/services.ts';

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
      const store = await openPostgresStore(schema.url);
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
