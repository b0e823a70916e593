/**
 * The real PostgreSQL and Redis of this machine (127.0.0.1:5432, trust auth, database `test`;
 * 127.0.0.1:6379), plus helpers that never disturb them: a schema per suite, a TCP proxy to cut
 * and restore PostgreSQL, a Redis server of a test's own. Absent services skip the tests with a
 * message; with CI=true their absence fails the run.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';

export const POSTGRES_BASE = 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = 'redis://127.0.0.1:6379';

function reachable(port: number): boolean {
  // The probe's own process can take seconds to start on a busy machine: its timeout catches a hang.
  const probe = spawnSync(
    process.execPath,
    ['-e', `require('net').connect(${port},'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))`],
    { timeout: 60_000 },
  );
  return probe.status === 0;
}

/** What each service's probe found, once a test process: a suite asks for each of its describes. */
const found = new Map<number, boolean>();

function available(name: string, port: number, how: string): boolean {
  if (!found.has(port)) found.set(port, reachable(port));
  if (found.get(port)) return true;
  const message = `${name} is not reachable on 127.0.0.1:${port}: its tests are skipped (${how})`;
  if (process.env.CI) throw new Error(`CI requires ${message.replace(': its tests are skipped', '')}`);
  console.warn(message);
  return false;
}

/** Whether the machine's PostgreSQL answers; in CI its absence is a failure. */
export const postgresAvailable = () => available('PostgreSQL', 5432, 'start it with pg_ctlcluster');
/** Whether the machine's Redis answers; in CI its absence is a failure. */
export const redisAvailable = () => available('Redis', 6379, 'start it with redis-server');

/**
 * The PostgreSQL store as the tests whose subject is not durability open it: COMMIT answered before
 * the log is on disk, which spares each test the disk's wait (the service never does: a receipt
 * means on disk); and a transaction waits for a pooled connection as long as a busy machine takes,
 * as a user would wait for a busy database, where the service gives up after 3 s with a 503.
 */
export const TEST_POSTGRES = { durableCommits: false, connectionTimeoutMs: 60_000 } as const;

/** A client of the `test` database for the tests' own set-up, which need not wait for the disk either. */
async function adminClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: POSTGRES_BASE });
  await client.connect();
  await client.query('SET synchronous_commit TO off');
  return client;
}

/** A fresh schema in the `test` database; `url` selects it; `drop` removes it and everything in it. */
export async function createSchema(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `lead_test_${randomBytes(5).toString('hex')}`;
  const admin = await adminClient();
  await admin.query(`CREATE SCHEMA ${name}`);
  await admin.end();
  return {
    name,
    url: schemaUrl(POSTGRES_BASE, name),
    async drop() {
      const c = await adminClient();
      await c.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      await c.end();
    },
  };
}

/** A PostgreSQL URL whose connections use `schema` (libpq's `options=-c search_path=…`). */
export function schemaUrl(base: string, schema: string): string {
  return `${base}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

/** A TCP proxy on a free loopback port, to cut a service off (`pause`) and bring it back (`resume`). */
export async function tcpProxy(targetPort: number): Promise<{ port: number; pause(): Promise<void>; resume(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => {});
          s.on('close', () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server?.close(() => resolve());
    });
  await listen();
  return { port, pause: stop, resume: listen, close: stop };
}

/** Resolves once the budget's counters reach the Redis at `url` (the limiter's connection is made in the background meanwhile). */
export async function countedInRedis(app: { services: { limiter: { consume(key: string): Promise<unknown> } } }, url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  try {
    const probe = `probe-${randomBytes(4).toString('hex')}`;
    for (let i = 0; i < 3_000; i++) {
      await app.services.limiter.consume(probe);
      if ((await redis.exists(`lead-intake:leads:${probe}`)) === 1) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`the budget's counters never reached the Redis at ${url}`);
  } finally {
    redis.disconnect();
  }
}

/** A redis-server of a test's own on a free port (never the shared one), to stop mid-run. */
export async function startOwnRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; i < 600 && !reachable(port); i++) await new Promise((r) => setTimeout(r, 100));
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/**
 * A PostgreSQL proxy that can cut the connection at the moment of truth: when armed, the next
 * `COMMIT` a client sends is either forwarded to the server and its answer withheld (the commit
 * happens, the client never learns it), or dropped (it never happens); either way the client's
 * connection is then cut. Everything else is relayed as it is.
 */
export async function commitCuttingProxy(
  targetPort = 5432,
): Promise<{ port: number; cutAtNextCommit(mode: 'after-commit' | 'before-commit'): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let armed: { mode: 'after-commit' | 'before-commit'; done(): void } | undefined;
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    let relayAnswers = true;
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.on('data', (data) => {
      if (relayAnswers) client.write(data);
    });
    // Frontend messages: the startup message (length first), then a type byte and a length each.
    let buffered = Buffer.alloc(0);
    let started = false;
    client.on('data', (data) => {
      buffered = Buffer.concat([buffered, data]);
      for (;;) {
        const offset = started ? 1 : 0;
        if (buffered.length < offset + 4) return;
        const size = offset + buffered.readInt32BE(offset);
        if (buffered.length < size) return;
        const message = buffered.subarray(0, size);
        buffered = buffered.subarray(size);
        const isCommit =
          started &&
          message[0] === 0x51 &&
          /^COMMIT\b/i.test(
            message
              .subarray(5, size - 1)
              .toString('utf8')
              .trim(),
          );
        started = true;
        if (isCommit && armed) {
          const { mode, done } = armed;
          armed = undefined;
          relayAnswers = false;
          if (mode === 'after-commit') upstream.write(message);
          // Long enough for the server to commit; the client hears nothing, then loses its connection.
          setTimeout(() => {
            client.destroy();
            upstream.destroy();
            done();
          }, 200);
          return;
        }
        upstream.write(message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    cutAtNextCommit: (mode) =>
      new Promise<void>((resolve) => {
        armed = { mode, done: resolve };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Whether this process may mount a small tmpfs (to fill a disk for real); in CI it must. */
export function canMountTmpfs(): boolean {
  const probe = spawnSync('sh', ['-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs "$d" && umount "$d"; r=$?; rmdir "$d"; exit $r'], {
    timeout: 60_000,
  });
  if (probe.status === 0) return true;
  const message = 'a tmpfs cannot be mounted here (root or CAP_SYS_ADMIN is needed): the full-disk tests are skipped';
  if (process.env.CI) throw new Error(`CI requires that ${message.replace(': the full-disk tests are skipped', '')}`);
  console.warn(message);
  return false;
}

/** Mounts a tmpfs of `sizeKiB` at `dir` (read-only with `readOnly`); the returned function unmounts it. */
export function mountTmpfs(dir: string, sizeKiB: number, options: { readOnly?: boolean } = {}): () => void {
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k${options.readOnly ? ',ro' : ''}`, 'tmpfs', dir]);
  if (mounted.status !== 0) throw new Error(`mount failed: ${mounted.stderr}`);
  return () => void spawnSync('umount', ['-l', dir]);
}

/** Whether a Redis of a test's own can be started here (`redis-server` on the PATH), for outages; in CI its absence is a failure. */
export function ownRedisAvailable(): boolean {
  if (spawnSync('redis-server', ['--version'], { timeout: 60_000 }).status === 0) return true;
  const message = 'redis-server is not installed: the Redis outage tests are skipped (apt-get install -y redis-server)';
  if (process.env.CI) throw new Error(`CI requires ${message.replace(': the Redis outage tests are skipped', '')}`);
  console.warn(message);
  return false;
}
