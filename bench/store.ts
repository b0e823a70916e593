/**
 * `npm run bench:store -- <checkout> [<checkout>…]`: the SQLite store's intake alone, without HTTP
 * or Astro, in each checkout's own code, alternated run by run in one process tree: leads a second
 * and the p50 / p99 of a submission, 16 in flight (BENCH_STORE_CONCURRENCY), 30,000 leads a run
 * (BENCH_STORE_LEADS), three runs each (BENCH_REPEAT); medians. How a change to the store's write
 * path was measured alone (decision 0024). `taskset -c 1 npm run bench:store …` gives it one core.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './serve.ts';

const leads = Number(process.env.BENCH_STORE_LEADS ?? 30_000);
const concurrency = Number(process.env.BENCH_STORE_CONCURRENCY ?? 16);
const repeat = Number(process.env.BENCH_REPEAT ?? 3);

/** One run in a child process of its own (a fresh heap and a fresh store), in `checkout`'s code. */
function run(checkout: string): { leadsPerSecond: number; p50: number; p99: number } {
  const child = spawnSync(process.execPath, [import.meta.filename, '--run', checkout], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`${checkout}: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!);
}

if (process.argv[2] === '--run') {
  const checkout = resolve(process.argv[3]!);
  const { openSqliteStore } = await import(join(checkout, 'src/store/sqlite/index.ts'));
  const { toLeadRecord } = await import(join(checkout, 'src/leads/lead.ts'));
  const { validateLead } = await import(join(checkout, 'src/leads/validate.ts'));
  const dir = mkdtempSync(join(tmpdir(), 'bench-store-'));
  const store = openSqliteStore(join(dir, 'leads.sqlite'));
  const records = Array.from({ length: leads }, (_, i) => {
    const v = validateLead({
      name: `Bench Customer ${i}`,
      phone: '(503) 555-0142',
      email: `bench+${i}@example.com`,
      bedrooms: '3',
      bathrooms: '2.5',
      service: 'Deep clean',
      notes: 'The kitchen needs extra attention, the windows too. '.repeat(8),
      communicationsConsent: true,
      consentTimestamp: '2026-11-20T17:03:00Z',
    });
    if (!v.ok) throw new Error(JSON.stringify(v.errors));
    return toLeadRecord(v.lead, { receivedVia: '/api/v1/leads', channel: 'api', clientAddress: '198.51.100.7', userAgent: 'bench', now: new Date() });
  });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < leads) {
        const i = next++;
        const sent = performance.now();
        await store.submit(records[i], { key: `bench-${i}`, requestHash: 'h' });
        latencies.push(performance.now() - sent);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const at = (q: number) => +latencies[Math.floor(latencies.length * q)]!.toFixed(2);
  console.log(JSON.stringify({ leadsPerSecond: Math.round(leads / seconds), p50: at(0.5), p99: at(0.99) }));
} else {
  const checkouts = process.argv.slice(2);
  if (checkouts.length === 0) throw new Error('name at least one checkout (built or not: the store runs from its sources)');
  const runs = new Map(checkouts.map((c) => [c, [] as Array<ReturnType<typeof run>>]));
  for (let r = 0; r < repeat; r++) for (const c of checkouts) runs.get(c)!.push(run(c));
  const first = median(runs.get(checkouts[0]!)!.map((x) => x.leadsPerSecond));
  console.log(`| checkout | leads/s | p50 ms | p99 ms | leads/s against ${checkouts[0]} |\n|---|---|---|---|---|`);
  for (const [c, rs] of runs) {
    const perSecond = median(rs.map((x) => x.leadsPerSecond));
    console.log(`| ${c} | ${perSecond} | ${median(rs.map((x) => x.p50))} | ${median(rs.map((x) => x.p99))} | ${(perSecond / first).toFixed(2)} |`);
  }
}
