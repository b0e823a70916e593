/**
 * Both stores, each opened fresh for one test: the SQLite store in a folder of its own, and the
 * PostgreSQL store in a schema of its own (skipped where PostgreSQL is not running, which `CI=true`
 * turns into a failure). `sql` runs a statement on the store's database behind its back, as a
 * person with the database's own tools (or an older build) would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { Store } from '../../src/store/index.ts';
import { openPostgresStore } from '../../src/store/postgres/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { createSchema, postgresAvailable, TEST_POSTGRES } from './services.ts';

export type OpenedStore = { store: Store; sql: (statement: string) => Promise<void>; cleanup: () => Promise<void> };

export const STORE_KINDS: ReadonlyArray<{ name: 'SQLite' | 'PostgreSQL'; skip: boolean; open: () => Promise<OpenedStore> }> = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'store-'));
      const path = join(dir, 'leads.sqlite');
      const store = openSqliteStore(path);
      const sql = async (statement: string) => {
        const db = new DatabaseSync(path);
        db.exec(statement);
        db.close();
      };
      return { store, sql, cleanup: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgresAvailable(),
    async open() {
      const schema = await createSchema();
      const store = await openPostgresStore(schema.url, TEST_POSTGRES);
      const sql = async (statement: string) => {
        const client = new pg.Client({ connectionString: schema.url });
        await client.connect();
        await client.query(statement);
        await client.end();
      };
      return { store, sql, cleanup: async () => (await store.close(), await schema.drop()) };
    },
  },
];
