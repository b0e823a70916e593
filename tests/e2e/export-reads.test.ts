/**
 * No request holds a read of the store open past its answer, and a download streams at the pace of
 * its reader. On the built server with a store of 20,000 leads: a HEAD of the office's export reads
 * nothing and records no export; a download abandoned half way and a download whose client stops
 * reading both leave the store free, so that a deletion on request, made while the stalled client
 * is still connected, erases the person from the file and its write-ahead log to the byte; and a
 * slow reader's download grows the server's memory by less than 30 MB.
 */
import { existsSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quote } from '../support/fixtures.ts';
import { addUser, signedIn, STAFF } from '../support/office.ts';
import { seedSqliteFile } from '../support/seed.ts';
import { freePort, leads, startServer, type RunningServer } from '../support/server.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const LEADS = 20_000;
/** A person whose details are found nowhere else in the store. */
const ZELDA = { name: 'Zelda Quixotewright', email: 'zq.export.token@example.com', phone: '(503) 555-0177', notes: 'NOTE-TOKEN-77c1 behind the quince tree' };
const TRACES = ['Quixotewright', 'zq.export.token', '5035550177', 'NOTE-TOKEN-77c1'];

/** Sends a GET of `path` on a raw connection and returns the socket, its bytes counted in `received.bytes`. */
function rawGet(port: number, path: string, cookie: string): { socket: Socket; received: { bytes: number } } {
  const socket = connect(port, '127.0.0.1');
  const received = { bytes: 0 };
  socket.on('data', (chunk: Buffer) => (received.bytes += chunk.length));
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\nAccept-Encoding: identity\r\n\r\n`);
  return { socket, received };
}

async function until(condition: () => boolean, what: string, ms = 120_000): Promise<void> {
  for (const started = Date.now(); !condition();) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The server's resident memory, in MiB. */
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

describe('the office export on a store of 20,000 leads', () => {
  let dir: string;
  let server: RunningServer;
  let cookie: string;
  let file: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'export-reads-'));
    file = join(dir, 'leads.sqlite');
    await seedSqliteFile(file, LEADS, { body: (i) => (i === LEADS / 2 ? quote(ZELDA) : quote()) });
    const port = await freePort();
    server = await startServer({ dir, env: { PORT: String(port), SITE_URL: `http://127.0.0.1:${port}` } });
    await addUser(server.databaseUrl, STAFF.email, STAFF.password);
    cookie = await signedIn(server.url);
  });
  afterAll(async () => {
    await server?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const exports = () => {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      return (db.prepare("SELECT detail FROM office_audit WHERE action = 'exported' ORDER BY id").all() as Array<{ detail: string }>).map((r) => r.detail);
    } finally {
      db.close();
    }
  };

  it('HEAD, an abandoned download and a stalled one hold no read: a deletion made meanwhile erases the person to the byte', async () => {
    // HEAD: what the download is, nothing read, nothing recorded.
    const head = await fetch(`${server.url}/office/export.csv`, { method: 'HEAD', headers: { Cookie: cookie } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(exports()).toEqual([]);

    // Abandoned half way: the connection closes after the first megabyte.
    const abandoned = rawGet(server.port, '/office/export.csv', cookie);
    await until(() => abandoned.received.bytes > 1024 * 1024, 'the first megabyte');
    abandoned.socket.destroy();

    // Stalled: the client takes the first megabyte, then reads no more and stays connected.
    const stalled = rawGet(server.port, '/office/export.csv', cookie);
    await until(() => stalled.received.bytes > 1024 * 1024, 'the first megabyte');
    stalled.socket.pause();
    await new Promise((r) => setTimeout(r, 500));

    try {
      const deleted = await leads(server.databaseUrl, ['delete', '--email', ZELDA.email]);
      expect(deleted.code).toBe(0);
      expect(deleted.stdout).toContain('Removed 1 lead.');
      expect(deleted.stderr).not.toMatch(/could not empty/);
      const bytes = Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
      expect(TRACES.filter((t) => bytes.includes(Buffer.from(t)))).toEqual([]);
    } finally {
      stalled.socket.destroy();
    }
  });

  it('a download to a slow reader streams: the server grows by less than 30 MB, and the whole download is recorded once', async () => {
    // (The downloads above may have been written whole into the connection's buffers before it closed.)
    const recorded = exports().length;
    const before = rssMiB(server.pid);
    const slow = rawGet(server.port, '/office/export.csv', cookie);
    let peak = before;
    // About 2 MB a second: far slower than the server can read the store.
    const reading = setInterval(() => {
      peak = Math.max(peak, rssMiB(server.pid));
      slow.socket.pause();
      setTimeout(() => slow.socket.resume(), 40);
    }, 50);
    try {
      await new Promise<void>((resolve, reject) => {
        slow.socket.on('end', resolve);
        slow.socket.on('close', resolve);
        slow.socket.on('error', reject);
        // The answer ends with the last chunk of its chunked framing.
        let tail = '';
        slow.socket.on('data', (chunk: Buffer) => {
          tail = (tail + chunk.toString('latin1')).slice(-8);
          if (tail.endsWith('\r\n0\r\n\r\n')) resolve();
        });
      });
    } finally {
      clearInterval(reading);
      slow.socket.destroy();
    }
    // Every row came (about 170 bytes each, since the spreadsheet holds no internal identifiers).
    expect(slow.received.bytes).toBeGreaterThan(LEADS * 150);
    expect(peak - before).toBeLessThan(30);
    await until(() => exports().length === recorded + 1, 'the audit entry');
    expect(exports().at(-1)).toBe(`Downloaded a spreadsheet of ${LEADS - 1} leads (both forms, the start to now).`);
  });
});
