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
  integrity(): Promise<string>;
  remove(): Promise<void>;
}

export async function sqliteStore(): Promise<SoakStore> {
  const dir = mkdtempSync(join(tmpdir(), 'soak-'));
  const file = join(dir, 'leads.sqlite');
  return {
    name: 'SQLite',
    databaseUrl: `file:${file}`,
    dir,
    open: async () => openSqliteStore(file),
    contents: async () => [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')),
    integrity: async () => {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        return (db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join('; ');
      } finally {
        db.close();
      }
    },
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

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
        const tables = await client.query<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'",
          [schema.name],
        );
        const texts: string[] = [];
        for (const { name } of tables.rows)
          texts.push((await client.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`)).rows.map((r) => r.row).join('\n'));
        return texts;
      } finally {
        await client.end();
      }
    },
    integrity: async () => 'not applicable (the server was killed, not PostgreSQL)',
    remove: async () => (await schema.drop(), rmSync(dir, { recursive: true, force: true })),
  };
}
