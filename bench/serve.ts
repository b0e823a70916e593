/**
 * Starting the servers the benchmarks measure: the built service exactly as `npm start` starts it
 * (the same script, the same Node flags), pinned to core 1 while the load generator has core 0, or
 * unpinned (each start says which: `startProcess`'s `pin`), everything sharing the cores as a small
 * server runs it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
/**
 * Whether servers are pinned by default (core 1, the load generator on core 0): `taskset` is there,
 * the machine has two cores or more, and not `BENCH_PIN=0` (a whole run unpinned). A case may still
 * start its servers unpinned (`startProcess`'s `pin: false`, with `unpinLoadGenerator`).
 */
export const pinning = process.env.BENCH_PIN !== '0' && existsSync('/usr/bin/taskset') && cpus().length >= 2;
/** The cores this process may run on as it started (`taskset -cp`), e.g. `0,1` or `0-3`: what `unpinLoadGenerator` gives back. */
const startingCores = pinning ? /list:\s*(\S+)/.exec(spawnSync('taskset', ['-cp', String(process.pid)], { encoding: 'utf8' }).stdout ?? '')?.[1] : undefined;
/** Moves this process (the load generator) to core 0, when pinning. */
export const pinLoadGenerator = () => pinning && spawnSync('taskset', ['-cp', '0', String(process.pid)], { stdio: 'ignore' });
/**
 * Gives this process (the load generator, every thread of it) every core it started with, for a
 * case measured unpinned; servers started meanwhile without `taskset` inherit the same from it.
 * `pinLoadGenerator` takes it back to core 0.
 */
export const unpinLoadGenerator = () =>
  pinning && startingCores && spawnSync('taskset', ['-a', '-cp', startingCores, String(process.pid)], { stdio: 'ignore' });
/** The cores a process may run on, as Linux lists them (`Cpus_allowed_list`: `1`, `0-1`). */
export const coresOf = (pid: number) => /Cpus_allowed_list:\s+(\S+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '';

export interface Running {
  url: string;
  pid: number;
  startupMs: number;
  /** The cores the server may run on (`Cpus_allowed_list`): `1` pinned, every core unpinned. */
  cores: string;
  stop(): Promise<void>;
}

/**
 * Starts `args` with Node and waits for its `listening` line (which carries port and pid), then for
 * a first answer to `GET /api/v1`; `startupMs` is from the spawn to that answer. `pin` (by default
 * `pinning`): on core 1 through `taskset`; without it, started as is, on the cores this process has
 * (all of them after `unpinLoadGenerator`). The server's output goes to a file, not through a pipe
 * into this process, which shares its core with the load generator.
 */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  logFile: string,
  cwd = ROOT,
  { pin = pinning }: { pin?: boolean } = {},
): Promise<Running> {
  const command = pin ? 'taskset' : process.execPath;
  const argv = pin ? ['-c', '1', process.execPath, ...args] : args;
  const started = performance.now();
  const out = openSync(logFile, 'w');
  // Both streams: the service's start-up line for a person goes to standard error.
  const child: ChildProcess = spawn(command, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
  closeSync(out);
  let listening: { port: number; pid: number } | undefined;
  while (!listening) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    const line = readFileSync(logFile, 'utf8')
      .split('\n')
      .find((l) => l.includes('"msg":"listening"'));
    if (line) listening = JSON.parse(line);
    else await new Promise((r) => setTimeout(r, 5));
  }
  const url = `http://127.0.0.1:${listening.port}`;
  while (
    !(await fetch(`${url}/api/v1`).then(
      (r) => r.status < 500,
      () => false,
    ))
  )
    await new Promise((r) => setTimeout(r, 5));
  const startupMs = performance.now() - started;
  return {
    url,
    pid: listening.pid,
    startupMs,
    cores: coresOf(listening.pid),
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** A memory figure of a process from /proc, in MiB: `VmHWM` (peak RSS) or `VmRSS` (RSS now). */
export const procMemoryMiB = (pid: number, field: 'VmHWM' | 'VmRSS') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
export const peakRssMiB = (pid: number) => procMemoryMiB(pid, 'VmHWM');
export const rssMiB = (pid: number) => procMemoryMiB(pid, 'VmRSS');

/** The service is started exactly as `npm start` starts it: the same script, the same Node flags. */
// `npm start` execs the server, so that npm waits for it; the benchmark runs the same command.
const startScript: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start.replace(/^exec /, '');
export const serviceArgs = startScript.split(/\s+/).slice(1);
if (startScript.split(/\s+/)[0] !== 'node') throw new Error(`npm start is expected to run node, not: ${startScript}`);

/** The environment the benchmarks give the service: loopback, the SQLite file in `dir`, the proxy trusted so that each load client is its own. */
export const serviceEnv = (dir: string): Record<string, string> => ({
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'info',
  DATABASE_URL: `file:${join(dir, 'leads.sqlite')}`,
  TRUST_PROXY: '127.0.0.1, ::1',
  REDIS_URL: '',
  SITE_URL: 'http://localhost:4321',
});

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
