/**
 * The stores the soak runs on, each fresh: a SQLite file in a folder of its own, or a schema of its own in the machine's
 * PostgreSQL (`tests/support/services.ts`), dropped after. Each says what it holds as text, for the search of the
 * bytes of leads that are gone, and checks its own integrity.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { Store } from '../../src/store/index.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { createSchema } from '../../tests/support/services.ts';

/** One store the soak runs on: its URL, how it is opened in this process, what it holds as text, and how it goes. */
export interface SoakStore {
  name: 'SQLite' | 'PostgreSQL';
  databaseUrl: string;
  dir: string;
  open(): Promise<Store>;
  /** Everything the store holds, as text: the SQLite file and its write-ahead log, or every row of the schema. */
  contents(): Promise<string[]>;
  /** Which of `strings` the store holds anywhere (the file and its log, or any row): quicker than `contents` for a few. */
  holds(strings: readonly string[]): Promise<string[]>;
  integrity(): Promise<string>;
  /**
   * What the store keeps counted as leads come, change and go (SQLite's per-status and per-day tables, kept by triggers)
   * set against a plain count of its rows: a sentence for each table that differs. PostgreSQL counts its rows as it reads.
   */
  keptCounts(): Promise<string[]>;
  remove(): Promise<void>;
}

/** Each kept table of the SQLite store, and the same counted from the leads with a plain GROUP BY (the triggers' rules, migration 18). */
const KEPT_COUNTS = {
  lead_status_counts: ['SELECT status, n FROM lead_status_counts WHERE n <> 0', 'SELECT status, count(*) FROM leads GROUP BY 1'],
  lead_days: [
    'SELECT day, form_type, service, n FROM lead_days',
    "SELECT COALESCE(received_day, substr(received_at, 1, 10)), form_type, COALESCE(chart_service, ''), count(*) FROM leads GROUP BY 1, 2, 3",
  ],
  lead_days_waiting: [
    'SELECT answer_by, day, contacted, n FROM lead_days_waiting',
    `SELECT answer_by, COALESCE(received_day, substr(received_at, 1, 10)), first_contact_at IS NOT NULL, count(*) FROM leads
     WHERE status = 'new' AND answer_by IS NOT NULL GROUP BY 1, 2, 3`,
  ],
  lead_days_contacted: [
    'SELECT day, late, minutes, n FROM lead_days_contacted',
    `SELECT COALESCE(received_day, substr(received_at, 1, 10)), first_contact_at > answer_by, COALESCE(first_contact_minutes, -1), count(*) FROM leads
     WHERE first_contact_at IS NOT NULL AND answer_by IS NOT NULL GROUP BY 1, 2, 3`,
  ],
};

export async function sqliteStore(): Promise<SoakStore> {
  const dir = mkdtempSync(join(tmpdir(), 'soak-'));
  const file = join(dir, 'leads.sqlite');
  return {
    name: 'SQLite',
    databaseUrl: `file:${file}`,
    dir,
    open: async () => openSqliteStore(file),
    contents: async () => [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')),
    holds: async (strings) => {
      const files = [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f));
      return strings.filter((text) => files.some((bytes) => bytes.includes(text, 0, 'latin1')));
    },
    integrity: async () => {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        return (db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join('; ');
      } finally {
        db.close();
      }
    },
    keptCounts: async () => {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        return Object.entries(KEPT_COUNTS).flatMap(([table, [kept, recount]]) => {
          const n = (sql: string) => (db.prepare(`SELECT count(*) AS n FROM (${sql})`).get() as { n: number }).n;
          const [extra, missing] = [n(`${kept} EXCEPT ${recount}`), n(`${recount} EXCEPT ${kept}`)];
          return extra + missing === 0 ? [] : [`${table} differs from a recount of the leads: ${extra} rows kept that the recount lacks, ${missing} it lacks`];
        });
      } finally {
        db.close();
      }
    },
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The tables of a schema. */
const TABLES = "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'";

export async function postgresStore(): Promise<SoakStore> {
  const schema = await createSchema();
  const dir = mkdtempSync(join(tmpdir(), 'soak-'));
  return {
    name: 'PostgreSQL',
    databaseUrl: schema.url,
    dir,
    open: () => openPostgresStore(schema.url),
    contents: async () => {
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      try {
        const tables = await client.query<{ name: string }>(TABLES, [schema.name]);
        const texts: string[] = [];
        for (const { name } of tables.rows)
          texts.push((await client.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`)).rows.map((r) => r.row).join('\n'));
        return texts;
      } finally {
        await client.end();
      }
    },
    holds: async (strings) => {
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      try {
        const found: string[] = [];
        for (const { name } of (await client.query<{ name: string }>(TABLES, [schema.name])).rows)
          for (const text of strings)
            if ((await client.query(`SELECT 1 FROM "${name}" t WHERE strpos(t::text, $1) > 0 LIMIT 1`, [text])).rowCount) found.push(text);
        return [...new Set(found)];
      } finally {
        await client.end();
      }
    },
    integrity: async () => 'not applicable (the server was killed, not PostgreSQL)',
    keptCounts: async () => [],
    remove: async () => (await schema.drop(), rmSync(dir, { recursive: true, force: true })),
  };
}
