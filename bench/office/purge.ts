/**
 * The daily retention purge's effect on the lead's path. The server purges at start-up and then once
 * a day (`src/jobs/purge.ts`, steps of `PURGE_STEP_ROWS` with a pause between them): started on a store
 * holding leads past retention, it purges them while leads arrive. Each run starts the service on
 * a fresh copy of the store and sends leads at concurrency 16 from its first answer on; the
 * server's log says when the purge ended and how long it took (the load stops there). "With": the default retention (730
 * days), so the purge removes the expired leads; "without": the same store with LEADS_RETENTION_DAYS
 * far longer, so that it removes none. The p99 compared is of the leads sent while the purge ran
 * (from the first answer, or from a second after it when the purge lasts over two, to the purge's
 * end), and of the leads sent in the same span after the first answer without it. Runs alternate.
 */
import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, serviceArgs, serviceEnv, startProcess } from '../serve.ts';
import { copyStore, type BuiltStore } from './stores.ts';

let counter = 0;
/** A distinct lead from a client of its own (the proxy is trusted), as bench/run.ts sends them. */
const leadRequest: autocannon.Request = {
  setupRequest: (req) => {
    const n = counter++;
    const body = JSON.stringify({
      name: `Purge Bench ${n}`,
      phone: '(503) 555-0142',
      email: `purge.bench+${n}@example.com`,
      service: 'Deep clean',
      bedrooms: '3',
      bathrooms: '2',
      notes: `Lead ${n} sent during the purge benchmark.`,
      communicationsConsent: true,
      consentTimestamp: '2026-11-20T17:03:00Z',
      pageUrl: 'https://www.example-cleaning.com/quote',
    });
    const forwardedFor = `2001:db8:${((n >> 16) & 0xffff).toString(16)}:${(n & 0xffff).toString(16)}::7`;
    return { ...req, method: 'POST', body, headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor } };
  },
};

interface Run {
  /** When the first answer came, and when the purge ended (epoch ms; the end is the server's log line). */
  readyAt: number;
  purgeEndAt: number;
  purgeMs: number;
  removed: number;
  /** Each lead's [sent at, latency ms]. */
  leads: Array<[number, number]>;
}

/**
 * One run: leads at concurrency 16 from the first answer until the server logs the purge's end
 * (with the purge, at most `seconds`), or for `seconds` (without).
 */
async function run(store: BuiltStore, purging: boolean, seconds: number): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-purge-'));
  copyStore(store.file, join(dir, 'leads.sqlite'));
  const env = { ...serviceEnv(dir), ...(!purging && { LEADS_RETENTION_DAYS: '36500' }) };
  const server = await startProcess(serviceArgs, env, join(dir, 'server.log'));
  const readyAt = Date.now();
  const leads: Array<[number, number]> = [];
  let refused = 0;
  try {
    const log = join(dir, 'server.log');
    await new Promise<void>((resolve, reject) => {
      const options = { url: `${server.url}/api/v1/leads`, connections: 16, duration: seconds, requests: [leadRequest] };
      const instance = autocannon(options, (err) => {
        clearInterval(watch);
        if (err) reject(err);
        else resolve();
      });
      const watch = setInterval(() => purging && readFileSync(log, 'utf8').includes('"msg":"retention purge done"') && instance.stop(), 50);
      instance.on('response', (_client, status, _bytes, ms) => {
        if (status === 201) leads.push([Date.now() - ms, ms]);
        else refused++;
      });
    });
    if (refused > 0) throw new Error(`${refused} lead POSTs were not answered 201 during the purge benchmark`);
  } finally {
    await server.stop();
  }
  const line = readFileSync(join(dir, 'server.log'), 'utf8')
    .split('\n')
    .find((l) => l.includes('"msg":"retention purge done"'));
  rmSync(dir, { recursive: true, force: true });
  if (!line) throw new Error('the server logged no retention purge');
  const done = JSON.parse(line) as { time: number | string; durationMs: number; removed: { leads: number } };
  const purgeEndAt = typeof done.time === 'number' ? done.time : Date.parse(done.time);
  return { readyAt, purgeEndAt, purgeMs: done.durationMs, removed: done.removed.leads, leads };
}

const p99 = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
};

export interface PurgeFigures {
  expired: number;
  removed: number;
  purgeMs: number;
  /** How long of the purge ran after the service's first answer, while leads came in. */
  overlapMs: number;
  leadsDuring: number;
  /** The leads of the same span without the purge. */
  leadsWithout: number;
  p99WithMs: number;
  p99WithoutMs: number;
  ratio: number;
}

/** `times` pairs of runs, with the purge and without; medians. */
export async function purgeEffect(store: BuiltStore, times: number, seconds: number): Promise<PurgeFigures> {
  const pairs: Array<{ removed: number; purgeMs: number; overlap: number; during: number; alone: number; withMs: number; withoutMs: number }> = [];
  for (let i = 0; i < times; i++) {
    const withPurge = await run(store, true, seconds);
    const overlap = Math.max(0, withPurge.purgeEndAt - withPurge.readyAt);
    const without = await run(store, false, Math.max(1, Math.ceil(overlap / 1000)));
    // The first second after the first answer is the JIT's warm-up in both runs: left out when the purge lasts longer.
    const from = overlap > 2_000 ? 1_000 : 0;
    const within = (r: Run, [sent]: [number, number]) => sent >= r.readyAt + from && sent <= r.readyAt + overlap;
    const during = withPurge.leads.filter((l) => within(withPurge, l)).map(([, ms]) => ms);
    const same = without.leads.filter((l) => within(without, l)).map(([, ms]) => ms);
    pairs.push({
      removed: withPurge.removed,
      purgeMs: withPurge.purgeMs,
      overlap,
      during: during.length,
      alone: same.length,
      withMs: p99(during),
      withoutMs: p99(same),
    });
  }
  const m = (pick: (p: (typeof pairs)[number]) => number) => median(pairs.map(pick));
  const p99WithMs = m((p) => p.withMs);
  const p99WithoutMs = m((p) => p.withoutMs);
  return {
    expired: store.spec.expired ?? 0,
    removed: m((p) => p.removed),
    purgeMs: Math.round(m((p) => p.purgeMs)),
    overlapMs: Math.round(m((p) => p.overlap)),
    leadsDuring: Math.round(m((p) => p.during)),
    leadsWithout: Math.round(m((p) => p.alone)),
    p99WithMs,
    p99WithoutMs,
    ratio: +(p99WithMs / Math.max(p99WithoutMs, 1)).toFixed(2),
  };
}
