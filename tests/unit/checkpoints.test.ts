/**
 * The SQLite store's checkpoints run off the request path: the service's connection never copies
 * the write-ahead log inside a COMMIT; a thread of its own copies it into the database file about
 * once a second, and closing the store waits for it (`src/store/sqlite/checkpointer.ts`).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { toLeadRecord } from '../../src/leads/lead.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { CHECKPOINT_EVERY_MS } from '../../src/store/sqlite/checkpointer.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { quote } from '../support/fixtures.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'checkpoints-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The leads the database file itself holds, without its log: what the checkpoints have copied there. */
function leadsInTheFileAlone(path: string): number {
  const copy = join(dir, 'file-alone.sqlite');
  copyFileSync(path, copy);
  const db = new DatabaseSync(copy);
  try {
    return (db.prepare('SELECT count(*) AS n FROM leads').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const lead = (i: number) => {
  const v = validateLead({ ...quote(), email: `checkpoint.${i}@example.com` });
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return toLeadRecord(v.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.7', userAgent: 'test', now: new Date() });
};

it('copies every committed lead into the database file within about a second, outside the commits', async () => {
  const path = join(dir, 'leads.sqlite');
  const store = openSqliteStore(path);
  for (let start = 0; start < 600; start += 50) await Promise.all(Array.from({ length: 50 }, (_, k) => store.submit(lead(start + k), undefined)));
  // The service's own connection leaves the log alone: the thread copies it on its next round.
  for (let waited = 0; leadsInTheFileAlone(path) < 600 && waited < 10 * CHECKPOINT_EVERY_MS; waited += 100) await new Promise((r) => setTimeout(r, 100));
  expect(leadsInTheFileAlone(path)).toBe(600);
  await store.close();
});

it("never checkpoints on the service's connection: it is the thread's work alone", async () => {
  const path = join(dir, 'leads.sqlite');
  // The thread's rounds a minute apart: whatever reaches the file meanwhile was copied inside a COMMIT.
  const store = openSqliteStore(path, { groupCommit: false, checkpointEveryMs: 60_000 });
  // 300 commits write some thousands of pages: past the thousand after which SQLite would copy the log by default.
  for (let i = 0; i < 300; i++) await store.submit(lead(i), undefined);
  expect(leadsInTheFileAlone(path)).toBe(0);
  await store.close();
  // Closing waits for the thread, then the last connection copies the rest: the file holds every lead.
  expect(leadsInTheFileAlone(path)).toBe(300);
});
