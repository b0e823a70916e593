/**
 * The one shape of an error in the log (`src/app/logger.ts`): name, message, code, stack and the
 * cause beneath it in the same shape, so that the driver's error under a `StoreUnavailableError`
 * is seen; never a driver's other fields, which may quote a customer's details.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/app/logger.ts';
import { StoreUnavailableError } from '../../src/leads/store.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { createSchema, postgresAvailable } from '../support/services.ts';

let lines: string[];
let logger: ReturnType<typeof createLogger>;
beforeEach(() => {
  lines = [];
  logger = createLogger('info', new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
});

const loggedErr = () => {
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!).err as Record<string, unknown>;
};

describe('an error logged with its cause', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'logger-unit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("shows the SQLite driver's error under the store's StoreUnavailableError", async () => {
    const store = openSqliteStore(join(dir, 'leads.sqlite'));
    await store.close();
    const err = (await store.ping().catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(StoreUnavailableError);
    const driver = err.cause as Error & { code?: string };
    expect(driver).toBeInstanceOf(Error);
    logger.error({ err }, 'lead store unavailable');
    expect(loggedErr()).toMatchObject({
      name: 'StoreUnavailableError',
      message: 'the SQLite store is closed',
      stack: expect.stringContaining('StoreUnavailableError'),
      cause: { name: driver.name, message: driver.message, ...(driver.code !== undefined && { code: driver.code }), stack: expect.any(String) },
    });
  });

  it('follows a chain of causes, and stops on a cycle', () => {
    const root = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    const middle = new Error('the pool could not connect', { cause: root });
    logger.error({ err: new StoreUnavailableError('PostgreSQL cannot be reached', { cause: middle }) }, 'lead store unavailable');
    expect(loggedErr()).toMatchObject({ cause: { message: 'the pool could not connect', cause: { message: 'connect ECONNREFUSED 127.0.0.1:5432' } } });

    lines.length = 0;
    const looped = new Error('a cause of itself');
    looped.cause = looped;
    logger.error({ err: looped }, 'odd');
    let depth = 0;
    for (let e: Record<string, unknown> | undefined = loggedErr(); e; e = e.cause as Record<string, unknown> | undefined) depth++;
    expect(depth).toBeGreaterThan(1);
    expect(depth).toBeLessThan(10);
  });

  it.skipIf(!postgresAvailable())("keeps a PostgreSQL error's message and code, never the row its detail quotes", async () => {
    const schema = await createSchema();
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      await client.query('CREATE TABLE people (email text PRIMARY KEY, phone text)');
      const insert = 'INSERT INTO people (email, phone) VALUES ($1, $2)';
      await client.query(insert, ['jane.doe@example.com', '(503) 555-0142']);
      const driver = (await client.query(insert, ['jane.doe@example.com', '(503) 555-0143']).catch((e: unknown) => e)) as Error & { detail?: string };
      // The driver's error does quote the row.
      expect(driver.detail).toContain('jane.doe@example.com');
      logger.error({ err: new StoreUnavailableError('PostgreSQL connection failed or cannot write', { cause: driver }) }, 'lead store unavailable');
      expect(loggedErr()).toMatchObject({ cause: { message: driver.message, code: '23505' } });
      expect(lines[0]).not.toMatch(/jane\.doe|555-014|detail|"table"|"constraint"/);
    } finally {
      await client.end();
      await schema.drop();
    }
  });
});
