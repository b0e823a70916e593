/**
 * When the commit itself fails, on real engines: SQLite on a disk that fills up (a tmpfs of the
 * test's own), PostgreSQL refusing a commit (a deferred constraint) and PostgreSQL cut off right
 * after COMMIT was sent. No 201 is ever sent for a lead that is not in the store, every answer
 * says honestly what became of the lead, and the service recovers by itself.
 */
import { mkdtempSync, rmSync, statfsSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClient, quote } from '../support/fixtures.ts';
import { postJson, type Reply } from '../support/http.ts';
import { exportLeads, startServer, type RunningServer } from '../support/server.ts';
import { canMountTmpfs, commitCuttingProxy, createSchema, mountTmpfs, POSTGRES_BASE, postgresAvailable, schemaUrl } from '../support/services.ts';

const env = { TRUST_PROXY: '127.0.0.1, ::1' };

/** Every lead answered 201 is in the store, and no lead answered otherwise is. */
async function expectStoreMatchesAnswers(databaseUrl: string, sent: Array<{ body: Record<string, unknown>; reply: Reply }>) {
  const stored = await exportLeads(databaseUrl);
  const storedIds = new Set(stored.map((l) => l.id));
  const storedEmails = new Set(stored.map((l) => (l.fields as { email: string }).email));
  for (const { body, reply } of sent) {
    if (reply.status === 201) expect(storedIds.has(reply.json.id), `acknowledged ${reply.json.id} is stored`).toBe(true);
    else expect(storedEmails.has(body.email as string), `${reply.status} ${body.email} is not stored`).toBe(false);
  }
}

describe.skipIf(!canMountTmpfs())('SQLite on a disk that fills up', () => {
  const dir = mkdtempSync(join(tmpdir(), 'full-disk-'));
  let unmount: () => void;
  let server: RunningServer;
  beforeAll(async () => {
    unmount = mountTmpfs(dir, 2048);
    server = await startServer({ dir, env });
  });
  afterAll(async () => {
    await server?.dispose();
    unmount?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After when a commit cannot be written, never a 201 for a lead it lost, and recovers when space returns', async () => {
    const sent: Array<{ body: Record<string, unknown>; reply: Reply }> = [];
    const submit = async (n: number) => {
      const bodies = Array.from({ length: n }, () => quote({ notes: `${'A roomy house. '.repeat(200)}` }));
      const replies = await Promise.all(bodies.map((body) => postJson(`${server.url}/api/v1/leads`, body, newClient())));
      bodies.forEach((body, i) => sent.push({ body, reply: replies[i]! }));
      return replies;
    };
    expect((await submit(4)).map((r) => r.status)).toEqual([201, 201, 201, 201]);

    // Leave the store less room than one commit needs: the write-ahead log cannot take the commit.
    const filler = join(dir, 'filler');
    const { bavail, bsize } = statfsSync(dir);
    writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 8 * 1024)));
    const full = await submit(12);
    for (const reply of full) {
      expect([201, 503], reply.text).toContain(reply.status);
      if (reply.status !== 503) continue;
      expect(reply.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(reply.json.code).toBe('service_unavailable');
      expect(reply.json.detail).toMatch(/nothing was stored/);
    }
    expect(full.filter((r) => r.status === 503).length, 'the full disk was met').toBeGreaterThan(0);
    // The log line is written asynchronously: it may reach us after the answers.
    await expect.poll(() => server.logs.join('\n'), { timeout: 60_000 }).toMatch(/database or disk is full/);

    unlinkSync(filler);
    expect((await submit(3)).map((r) => r.status)).toEqual([201, 201, 201]);
    await expectStoreMatchesAnswers(server.databaseUrl, sent);
  });
});

describe.skipIf(!postgresAvailable())('PostgreSQL commits that fail', () => {
  let schema: Awaited<ReturnType<typeof createSchema>>;
  let proxy: Awaited<ReturnType<typeof commitCuttingProxy>>;
  let server: RunningServer;
  beforeAll(async () => {
    schema = await createSchema();
    proxy = await commitCuttingProxy();
    server = await startServer({ env: { ...env, DATABASE_URL: schemaUrl(`postgres://postgres@127.0.0.1:${proxy.port}/test`, schema.name) } });
    // A deferred constraint, checked at COMMIT: it refuses any lead whose notes ask for it.
    const admin = new pg.Client({ connectionString: schemaUrl(POSTGRES_BASE, schema.name) });
    await admin.connect();
    await admin.query(`CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.fields::text LIKE '%refuse-at-commit%' THEN RAISE EXCEPTION 'refused at commit'; END IF; RETURN NULL; END $$`);
    await admin.query(
      'CREATE CONSTRAINT TRIGGER leads_refuse_at_commit AFTER INSERT ON leads DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_at_commit()',
    );
    await admin.end();
  });
  afterAll(async () => {
    await server?.dispose();
    await proxy?.close();
    await schema?.drop();
  });

  it('a COMMIT the database refuses is a 500 with nothing stored, never a 201', async () => {
    const body = quote({ notes: 'refuse-at-commit' });
    const reply = await postJson(`${server.url}/api/v1/leads`, body, newClient());
    expect(reply.status).toBe(500);
    expect(reply.json.code).toBe('internal_error');
    const ok = quote();
    const next = await postJson(`${server.url}/api/v1/leads`, ok, newClient());
    expect(next.status).toBe(201);
    await expectStoreMatchesAnswers(schema.url, [
      { body, reply },
      { body: ok, reply: next },
    ]);
  });

  for (const mode of ['after-commit', 'before-commit'] as const) {
    it(`a connection cut ${mode === 'after-commit' ? 'after the COMMIT reached the database' : 'as COMMIT was sent'} is a 503 saying the lead may be stored; a retry with the same key is safe`, async () => {
      const body = quote();
      const client = newClient();
      const key = crypto.randomUUID();
      const cut = proxy.cutAtNextCommit(mode);
      const first = await postJson(`${server.url}/api/v1/leads`, body, { ...client, 'Idempotency-Key': key }).catch((err) => {
        throw new Error(`${err}\n${server.logs.slice(-15).join('\n')}`);
      });
      await cut;
      expect(first.status).toBe(503);
      expect(first.json.code).toBe('service_unavailable');
      expect(first.json.detail).toMatch(/may have been stored/);
      expect(first.headers.get('retry-after')).toMatch(/^\d+$/);

      const retry = await postJson(`${server.url}/api/v1/leads`, body, { ...client, 'Idempotency-Key': key });
      expect(retry.status).toBe(201);
      // Stored by the first attempt, the retry replays it; not stored, the retry stores it. Once either way.
      expect(retry.headers.get('idempotent-replayed')).toBe(mode === 'after-commit' ? 'true' : null);
      const stored = (await exportLeads(schema.url)).filter((l) => (l.fields as { email: string }).email === body.email);
      expect(stored.map((l) => l.id)).toEqual([retry.json.id]);
    });
  }
});
