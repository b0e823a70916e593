/**
 * Starts the built server as a user would (`npm start`) on a free port with a fresh SQLite file,
 * and collects its log lines. Every end-to-end suite speaks real HTTP to it.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface RunningServer {
  url: string;
  port: number;
  /** The node process serving (not npm's). */
  pid: number;
  databaseUrl: string;
  dir: string;
  child: ChildProcess;
  /** Every line the server wrote, standard output and error. */
  logs: string[];
  /** Sends SIGTERM and waits for the exit; returns the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Stops and removes the temporary directory. */
  dispose(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse a store directory (for restart tests). */
  dir?: string;
}

/** Starts `npm start` with PORT=0 and waits for its `listening` log line. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'lead-intake-'));
  const databaseUrl = `file:${join(dir, 'leads.sqlite')}`;
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', SITE_URL: 'http://localhost:4321', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let pid = 0;
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join('\n')}`)), 20_000);
    const onLine = (stream: NodeJS.ReadableStream) => {
      let buffered = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) {
          logs.push(line);
          if (line.includes('"msg":"listening"')) {
            clearTimeout(timer);
            pid = JSON.parse(line).pid;
            resolve(JSON.parse(line).port);
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
    return exited;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid,
    databaseUrl,
    dir,
    child,
    logs,
    stop,
    async dispose() {
      await stop();
      if (!options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `npm run leads -- export` against a store and returns the parsed lines. */
export async function exportLeads(databaseUrl: string): Promise<Array<Record<string, unknown>>> {
  const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'leads', '--', 'export'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  return stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}
