/**
 * Nothing acknowledged is lost: SIGKILL in the middle of concurrent submissions, restart on the
 * same store, every acknowledged id is there and the database is intact; SIGTERM drains and exits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { contact, newClient, quote } from '../support/fixtures.ts';
import { postJson } from '../support/http.ts';
import { exportLeads, startServer } from '../support/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'durability-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { TRUST_PROXY: '127.0.0.1, ::1' };

describe('crash safety', () => {
  it('every acknowledged lead survives SIGKILL during concurrent submissions, three times over', async () => {
    const acknowledged = new Set<string>();
    for (let round = 0; round < 3; round++) {
      const server = await startServer({ dir, env });
      let stop = false;
      const worker = async () => {
        while (!stop) {
          const reply = await postJson(`${server.url}/api/v1/leads`, Math.random() < 0.5 ? quote() : contact(), newClient()).catch(() => undefined);
          if (reply?.status === 201) acknowledged.add(reply.json.id);
        }
      };
      const workers = Array.from({ length: 16 }, worker);
      const target = acknowledged.size + 60 + Math.floor(Math.random() * 60);
      while (acknowledged.size < target) await new Promise((r) => setTimeout(r, 5));
      await server.stop('SIGKILL');
      stop = true;
      await Promise.all(workers);
    }
    const server = await startServer({ dir, env });
    try {
      const stored = new Set((await exportLeads(server.databaseUrl)).map((l) => l.id as string));
      const missing = [...acknowledged].filter((id) => !stored.has(id));
      expect(missing).toEqual([]);
      expect(acknowledged.size).toBeGreaterThanOrEqual(180);
      const db = new DatabaseSync(join(dir, 'leads.sqlite'), { readOnly: true });
      expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
      db.close();
    } finally {
      await server.stop();
    }
  });

  it('idempotency keys and duplicate detection survive a restart', async () => {
    const body = quote();
    const key = crypto.randomUUID();
    let server = await startServer({ dir, env });
    const first = await postJson(`${server.url}/api/v1/leads`, body, { ...newClient(), 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    await server.stop();
    server = await startServer({ dir, env });
    try {
      const replay = await postJson(`${server.url}/api/v1/leads`, body, { ...newClient(), 'Idempotency-Key': key });
      expect(replay.status).toBe(201);
      expect(replay.json).toEqual(first.json);
      const duplicate = await postJson(`${server.url}/api/v1/leads`, body, newClient());
      expect(duplicate.status).toBe(409);
      expect(duplicate.json.leadId).toBe(first.json.id);
    } finally {
      await server.stop();
    }
  });
});

describe('graceful shutdown', () => {
  it('on SIGTERM stops taking connections, finishes the request in flight, closes the store and exits 0', async () => {
    const server = await startServer({ dir, env });
    const body = Buffer.from(JSON.stringify(quote()));
    // A submission whose body is still arriving when SIGTERM comes: begun (the server invited its
    // body, `100 Continue`), then the stop, then the rest of the body once new connections are refused.
    let sendRest!: () => void;
    let begun!: () => void;
    const invited = new Promise<void>((resolve) => (begun = resolve));
    const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/api/v1/leads`,
        { method: 'POST', headers: { ...newClient(), 'Content-Type': 'application/json', 'Content-Length': body.length, Expect: '100-continue' } },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.on('continue', () => (req.write(body.subarray(0, 20)), begun()));
      req.flushHeaders();
      sendRest = () => req.end(body.subarray(20));
    });
    await invited;
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
    process.kill(server.pid, 'SIGTERM');
    await expect
      .poll(() =>
        fetch(`${server.url}/api/v1`).then(
          () => 'served',
          () => 'refused',
        ),
      )
      .toBe('refused');
    sendRest();
    const reply = await inFlight;
    expect(reply.status).toBe(201);
    expect(await exited).toBe(0);
    expect(server.logs.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
    const stored = await exportLeads(server.databaseUrl);
    expect(stored.some((l) => l.id === JSON.parse(reply.body).id)).toBe(true);
  });
});
