/**
 * Starts the built server as a user would (`npm start`) on a free port with a fresh SQLite file,
 * and collects its log lines. Every end-to-end suite speaks real HTTP to it.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * The environment of a process the tests start, without the test runner's own variables: Vite
 * and Astro read `MODE`, `DEV`, `PROD` and `NODE_ENV`, which Vitest sets for itself (`test`), and
 * would build or serve in test mode.
 */
export function childEnv(): Record<string, string | undefined> {
  const runners = new Set(['NODE_ENV', 'MODE', 'DEV', 'PROD', 'TEST', 'SSR', 'BASE_URL']);
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && !runners.has(name)));
}

export interface RunningServer {
  url: string;
  port: number;
  /** The node process serving (not npm's). */
  pid: number;
  databaseUrl: string;
  dir: string;
  child: ChildProcess;
  /** Every line the server wrote, standard output and error, but its one human start-up line. */
  logs: string[];
  /** What the server said for a person at start-up (`Lead Intake API: …`), apart from its JSON log. */
  said: string[];
  /** Sends SIGTERM and waits for the exit; returns the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Stops and removes the temporary directory. */
  dispose(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse a store directory (for restart tests). */
  dir?: string;
  /** The project to run, built: a copy of this one with other content (this one by default). */
  project?: string;
}

/** How the server's start-up line for a person begins (`src/server/start.ts`). */
const HUMAN_LINE = 'Lead Intake API: ';

/** Starts `npm start` with PORT=0 and waits for its `listening` log line. */
export function startServer(options: StartOptions = {}): Promise<RunningServer> {
  return run(['start', '--silent'], options, (line) =>
    line.includes('"msg":"listening"') ? { port: JSON.parse(line).port, pid: JSON.parse(line).pid } : undefined,
  );
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts `npm run dev` (Astro's own dev server, what editors run) on a free port (or `env.PORT`) and
 * waits until it serves, at the port Astro says it took (the next free one when `PORT` is taken).
 * `--ignore-lock`: beside an editor's own dev server, and never moved to the background.
 */
export async function startDevServer(options: StartOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const server = await run(['run', '--silent', 'dev', '--', '--ignore-lock'], { ...options, env: { PORT: String(port), ...options.env } }, (line) => {
    const local = /Local\s+http:\/\/(?:127\.0\.0\.1|localhost):(\d+)/.exec(line);
    return local ? { port: Number(local[1]), pid: 0 } : undefined;
  });
  // Astro prints its address before its routes are loaded: wait until it serves the home page.
  for (
    let tries = 0;
    (await fetch(`${server.url}/`).then(
      (r) => r.status,
      () => 0,
    )) !== 200;
    tries++
  ) {
    if (tries > 600) throw new Error(`astro dev did not serve / within five minutes:\n${server.logs.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return server;
}

/** Resolves once process `pid` (0: not known) has ended (gone, or a zombie waiting for its reaper); at most two minutes. */
async function processGone(pid: number): Promise<void> {
  if (pid <= 0) return;
  for (let i = 0; i < 2_400; i++) {
    try {
      process.kill(pid, 0);
      if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) return;
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`server process ${pid} still running two minutes after npm exited`);
}

const ANSI_COLOUR = /\x1b\[[0-9;]*m/g;

async function run(args: string[], options: StartOptions, ready: (line: string) => { port: number; pid: number } | undefined): Promise<RunningServer> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'lead-intake-'));
  const databaseUrl = options.env?.DATABASE_URL ?? `file:${join(dir, 'leads.sqlite')}`;
  const child = spawn('npm', args, {
    cwd: options.project ?? ROOT,
    detached: true,
    env: {
      ...childEnv(),
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      SITE_URL: 'http://localhost:4321',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const said: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let pid = 0;
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join('\n')}`)), 300_000);
    const onLine = (stream: NodeJS.ReadableStream) => {
      let buffered = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        // Colours stripped: with CI set, Astro and Vite colour their lines even into a pipe.
        for (const line of lines.map((l) => l.replace(ANSI_COLOUR, ''))) {
          if (line.startsWith(HUMAN_LINE)) said.push(line);
          else logs.push(line);
          const started = ready(line);
          if (started) {
            clearTimeout(timer);
            pid = started.pid;
            resolve(started.port);
          }
        }
      });
    };
    onLine(child.stdout!);
    onLine(child.stderr!);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${logs.join('\n')}`));
    });
  });
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        /* already gone */
      }
    }
    const code = await exited;
    // npm may exit before the server it started has finished closing its store: wait for the server
    // itself, so that nothing it still writes lands on a file a test replaces next.
    await processGone(pid);
    return code;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid,
    databaseUrl,
    dir,
    child,
    logs,
    said,
    stop,
    async dispose() {
      await stop();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `npm run -s leads -- <args>` against a store; resolves with its exit code and output, whatever the code. */
export function leads(databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'leads', '--', ...args],
      { cwd: ROOT, env: { ...childEnv(), DATABASE_URL: databaseUrl, ...env }, maxBuffer: 512 * 1024 * 1024 },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr: stderr.replace(/^npm warn .*\n/gm, '') });
      },
    );
  });
}

/** Runs `npm run -s leads -- export` against a store and returns the parsed lines. */
export async function exportLeads(databaseUrl: string): Promise<Array<Record<string, unknown>>> {
  const { code, stdout, stderr } = await leads(databaseUrl, ['export']);
  if (code !== 0) throw new Error(`leads export exited with ${code}: ${stderr}`);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}
