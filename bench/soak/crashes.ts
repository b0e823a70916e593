/**
 * The server under the soak: the built service started as `npm start` starts it (`tests/support/server.ts`), on one
 * port and one store, killed with SIGKILL when the soak says and started again at once on the same store. Whoever
 * sends a request first waits until it serves (`whenUp`). A server that exits by itself is a finding: said at once with
 * the last lines it logged at error level, and started again. What it logged at error level, or answered with a 5xx, is
 * kept (its messages only: the log holds no personal data) for the verdict.
 */
import { startServer, type RunningServer } from '../../tests/support/server.ts';

export class CrashingServer {
  readonly url: string;
  kills = 0;
  /** Exits the soak did not cause: the server died by itself. */
  readonly deaths: string[] = [];
  /** Error-level lines (their messages, counted), 5xx answers and warnings about the write-ahead log the server logged, over all its starts. */
  readonly errors = new Map<string, number>();
  private server: RunningServer | undefined;
  /** Resolved while the server serves; pending, for everyone who asks meanwhile, from a kill until the next start. */
  private ready!: Promise<void>;
  private serving!: () => void;
  private setup: { port: number; dir: string; env: Record<string, string> };
  /** The soak is stopping or killing the server: its exit is expected. */
  private expected = false;
  /** A start under way after the server died by itself, which a kill waits for. */
  private restarting: Promise<void> = Promise.resolve();
  /** Any start under way, until it listens (or fails): what `abandon` waits for, so that no server is left behind. */
  private starting: Promise<unknown> = Promise.resolve();

  constructor(setup: { port: number; dir: string; env: Record<string, string> }) {
    this.setup = setup;
    this.url = `http://127.0.0.1:${setup.port}`;
    this.down();
  }

  private down(): void {
    this.ready = new Promise((resolve) => (this.serving = resolve));
  }

  /** Resolves once the server serves (at once while it does). */
  whenUp(): Promise<void> {
    return this.ready;
  }

  /** Starts the server on the soak's store; resolves once it listens. */
  async start(): Promise<void> {
    const { port, dir, env } = this.setup;
    const starting = startServer({ dir, env: { ...env, PORT: String(port) } });
    this.starting = starting.catch(() => {});
    const server = await starting;
    this.server = server;
    this.expected = false;
    server.child.once('exit', (code, signal) => {
      if (this.expected || this.server !== server) return;
      this.down();
      const said = this.collect(server).slice(-3);
      this.deaths.push(`the server (pid ${server.pid}) exited by itself (${signal ?? `code ${code}`})${said.length ? `, after: ${said.join(' | ')}` : ''}`);
      console.log(`  ${this.deaths.at(-1)}; started again`);
      this.restarting = this.start();
      // Said by the next kill or the stop, which wait for it: a server that cannot start again ends the soak.
      this.restarting.catch(() => {});
    });
    this.serving();
  }

  /** Whether the running server said that a reader held off its emptying of the write-ahead log after a deletion. */
  heldOff(): boolean {
    return this.server?.logs.some((line) => line.includes('could not empty the write-ahead log')) ?? false;
  }

  /** Kills the server at once, whatever it is doing (the soak itself ends): npm and the node process it runs. */
  killNow(): void {
    try {
      if (this.server) process.kill(-this.server.child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }

  /** Kills the server, and the one starting, if any, once it listens: the soak was stopped, nothing is left running. */
  async abandon(): Promise<void> {
    this.killNow();
    await this.starting;
    this.killNow();
  }

  /** Kills the server with SIGKILL (npm and the node process it runs), then starts it again; says its pid and how long it was away. */
  async killAndRestart(): Promise<{ pid: number; awayMs: number }> {
    await this.restarting;
    const server = this.server!;
    this.expected = true;
    this.down();
    const killedAt = performance.now();
    await server.stop('SIGKILL');
    this.kills++;
    this.collect(server);
    await this.start();
    return { pid: server.pid, awayMs: performance.now() - killedAt };
  }

  /** Stops the server as an operator does (SIGTERM: it finishes what it accepted and closes the store); says its exit code. */
  async stop(): Promise<number | null> {
    await this.restarting;
    const server = this.server!;
    this.expected = true;
    this.down();
    const code = await server.stop('SIGTERM');
    this.collect(server);
    return code;
  }

  /** Keeps what a server logged at error level or answered with a 5xx, by its message; says those lines, in order. */
  private collect(server: RunningServer): string[] {
    const said: string[] = [];
    for (const line of server.logs) {
      if (!line.startsWith('{')) continue;
      let entry: { level?: number; msg?: string; status?: number; err?: { message?: string } };
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      const what =
        (entry.level ?? 0) >= 50
          ? `logged at error level: ${entry.msg}${entry.err?.message ? ` (${entry.err.message.slice(0, 200)})` : ''}`
          : entry.msg === 'request' && (entry.status ?? 0) >= 500
            ? `answered ${entry.status}`
            : (entry.level ?? 0) >= 40 && entry.msg?.includes('write-ahead log')
              ? `warned: ${entry.msg.replace(/SQLite store \S+: /, '').slice(0, 120)}`
              : undefined;
      if (what) this.errors.set(what, (this.errors.get(what) ?? 0) + 1);
      if (what) said.push(what);
    }
    // What it wrote that is not JSON (an uncaught exception's stack, on standard error), its first line.
    const uncaught = server.logs.find((l) => /^\w*Error\b|^Uncaught/.test(l));
    if (uncaught) said.push(uncaught.slice(0, 200));
    server.logs.length = 0;
    return said;
  }
}
