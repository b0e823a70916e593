/**
 * /privacy names everything a lead keeps (issue 54, item 6): every member of either form, and every
 * column of the store's lead tables on both stores, is in the map of `src/store/privacy-map.ts` (or
 * in its short list of technical columns), and the words the map gives are on the rendered page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ContactMessage, QuoteRequest } from '../../src/leads/schema.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { PRIVACY_COLUMNS, PRIVACY_EXEMPT, PRIVACY_MEMBERS } from '../../src/store/privacy-map.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { documents } from '../support/documents.ts';
import { createSchema, postgresAvailable, TEST_POSTGRES } from '../support/services.ts';

const TABLES = Object.keys(PRIVACY_COLUMNS);
const page = documents()['/privacy']!.replace(/\s+/g, ' ');

/** What the map leaves unnamed: each member of the forms, and each column of `columns` (by table), neither mapped nor exempt. */
function unnamed(members: readonly string[], columns: Record<string, readonly string[]>): string[] {
  return [
    ...members.filter((m) => !Object.hasOwn(PRIVACY_MEMBERS, m)).map((m) => `member ${m}`),
    ...Object.entries(columns).flatMap(([table, names]) =>
      names.filter((c) => !Object.hasOwn(PRIVACY_COLUMNS[table] ?? {}, c) && !(PRIVACY_EXEMPT[table] ?? []).includes(c)).map((c) => `column ${table}.${c}`),
    ),
  ];
}
/** The map's words that the page does not say. */
const unsaid = (words: Record<string, string>) => Object.entries(words).filter(([, w]) => !page.includes(w));

const MEMBERS = [...new Set([...Object.keys(QuoteRequest.shape), ...Object.keys(ContactMessage.shape)])];

function sqliteColumns(): Record<string, string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'privacy-'));
  try {
    const path = join(dir, 'leads.sqlite');
    const store = openSqliteStore(path);
    void store.close();
    const db = new DatabaseSync(path, { readOnly: true });
    const columns = Object.fromEntries(TABLES.map((t) => [t, (db.prepare(`PRAGMA table_info(${t})`).all() as Array<{ name: string }>).map((c) => c.name)]));
    db.close();
    return columns;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('/privacy names everything a lead keeps', () => {
  it('every member of either form and every column of the lead tables (SQLite) is mapped to words on the page', () => {
    const columns = sqliteColumns();
    for (const table of TABLES) expect(columns[table]!.length, table).toBeGreaterThan(2);
    expect(unnamed(MEMBERS, columns)).toEqual([]);
    expect(unsaid(PRIVACY_MEMBERS)).toEqual([]);
    for (const words of Object.values(PRIVACY_COLUMNS)) expect(unsaid(words)).toEqual([]);
  });

  it.skipIf(!postgresAvailable())('and every column of the lead tables on PostgreSQL', async () => {
    const schema = await createSchema();
    const store = await openPostgresStore(schema.url, TEST_POSTGRES);
    try {
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      const { rows } = await client.query<{ table_name: string; column_name: string }>(
        'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ANY($1)',
        [TABLES],
      );
      await client.end();
      const columns: Record<string, string[]> = {};
      for (const r of rows) (columns[r.table_name] ??= []).push(r.column_name);
      for (const table of TABLES) expect(columns[table]?.length ?? 0, table).toBeGreaterThan(2);
      expect(unnamed([], columns)).toEqual([]);
    } finally {
      await store.close();
      await schema.drop();
    }
  });

  it('names the office\'s mark "not a customer" on a form the spam check stopped: who marked it and when (issue 55, item 6)', () => {
    expect(PRIVACY_COLUMNS.suspected_spam).toHaveProperty('dismissed_at');
    expect(PRIVACY_COLUMNS.suspected_spam).toHaveProperty('dismissed_by');
    expect(page).toContain('marks it as not a customer, with who marked it and when');
  });

  it('a member or a column planted without words on the page is seen', () => {
    expect(unnamed([...MEMBERS, 'reachTimes'], { leads: ['id', 'reach_times'] })).toEqual(['member reachTimes', 'column leads.reach_times']);
    expect(unsaid({ reachTimes: 'when you can take a call' })).toEqual([['reachTimes', 'when you can take a call']]);
  });
});
