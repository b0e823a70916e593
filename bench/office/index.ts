/**
 * The office at volume (issue 41, targets 2 and 3): stores of 10,000 leads and 1,000 caught
 * submissions and of 100,000 and 10,000 (and 1,000 and 100, for the chart), built by the bench
 * (stores.ts), then, against the built service on each: the office's pages over HTTP (measure.ts),
 * the CSV export of everything, the start-up with each store and with an empty one, and the
 * start-up purge of 10,000 leads past retention during leads (purge.ts). Prints each target with
 * its ratio and PASS or MISS against the issue's threshold; draws docs/images/bench-office.svg.
 * `--smoke`: stores of 200 and 2,000 leads, one or two of each measurement, no chart (five starts of the
 * service, 10–20 s on a busy 2-core machine).
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { ROOT } from '../serve.ts';
import { officeChart } from './chart.ts';
import { measureOffice, OPERATIONS, OVERVIEW, PROMISE, startupMs, type StoreFigures } from './measure.ts';
import { purgeEffect, type PurgeFigures } from './purge.ts';
import { builtStore, type BuiltStore, type StoreSpec } from './stores.ts';

export interface Target {
  target: string;
  small: number;
  large: number;
  ratio: number;
  limit: number;
  /** What the ratio is of, as the table says it. */
  of: string;
  pass: boolean;
}

export interface OfficeResult {
  stores: Array<{ leads: number; spam: number; expired: number; buildSeconds: number; cached: boolean }>;
  figures: StoreFigures[];
  startup: { emptyMs: number; byLeads: Record<number, number> };
  purge: PurgeFigures;
  targets: Target[];
}

const ratio = (a: number, b: number) => +(a / Math.max(b, 0.01)).toFixed(2);

/**
 * `leadRssMiB`: the service's peak resident memory under the lead rows of the same run (a whole
 * `npm run bench`), for target 4; without it (`--office` alone) that target is not measured.
 */
export async function officeBench({ smoke, leadRssMiB }: { smoke: boolean; leadRssMiB?: number }): Promise<OfficeResult> {
  const sizes: StoreSpec[] = smoke
    ? [
        { leads: 200, spam: 20 },
        { leads: 2_000, spam: 200 },
      ]
    : [
        { leads: 1_000, spam: 100 },
        { leads: 10_000, spam: 1_000 },
        { leads: 100_000, spam: 10_000 },
      ];
  const repeat = smoke ? 2 : Number(process.env.BENCH_OFFICE_REPEAT ?? 15);
  const exportsPerStore = smoke ? 1 : 3;
  const startups = smoke ? 1 : 3;
  const purgeRuns = smoke ? 1 : 2;

  console.log(`\noffice: building the stores (${sizes.map((s) => `${s.leads} leads + ${s.spam} caught`).join(', ')}) or reusing those kept…`);
  const stores: BuiltStore[] = [];
  for (const spec of sizes) stores.push(await builtStore(spec));
  const large = stores.at(-1)!;
  const small = stores.at(-2)!;
  const expired = await builtStore({ ...large.spec, expired: smoke ? 300 : 10_000 }, large);
  for (const s of [...stores, expired])
    console.log(`  ${s.spec.leads} leads (+${s.spec.expired ?? 0} expired): ${s.cached ? 'kept from an earlier run' : `built in ${s.buildSeconds} s`}`);

  console.log('office: start-up, the pages, the export…');
  const figures: StoreFigures[] = [];
  for (const s of stores) figures.push(await measureOffice(s, repeat, s === small || s === large ? exportsPerStore : 1));
  // The smoke takes the start-ups of the runs above (one each); a whole run starts each store again, for medians.
  const startup = { emptyMs: await startupMs(undefined, startups), byLeads: {} as Record<number, number> };
  for (const [i, s] of stores.entries())
    if (s === small || s === large) startup.byLeads[s.spec.leads] = smoke ? figures[i]!.startupMs : await startupMs(s, startups);
  console.log('office: the start-up purge during leads…');
  const purge = await purgeEffect(expired, purgeRuns, smoke ? 2 : 120);

  const [a, b] = [figures.at(-2)!, figures.at(-1)!];
  const n = (x: number) => x.toLocaleString('en-US');
  const per = `${n(b.leads)} / ${n(a.leads)}`;
  const targets: Target[] = [
    ...OPERATIONS.map((op) => ({
      target: op,
      small: a.medianMs[op],
      large: b.medianMs[op],
      ratio: ratio(b.medianMs[op], a.medianMs[op]),
      limit: 1.5,
      of: per,
    })),
    // The inbox at a glance (issue 38): timed, with no threshold of issue 41's.
    ...OVERVIEW.map((op) => ({
      target: op,
      small: a.overviewMs[op],
      large: b.overviewMs[op],
      ratio: ratio(b.overviewMs[op], a.overviewMs[op]),
      limit: NaN,
      of: per,
    })),
    // Is the promise kept? (issue 46, item 2): the chart's store read, and the read with the figures worked out.
    ...PROMISE.map((op) => ({
      target: op,
      small: a.promiseMs[op],
      large: b.promiseMs[op],
      ratio: ratio(b.promiseMs[op], a.promiseMs[op]),
      limit: NaN,
      of: per,
    })),
    { target: 'CSV export, ms', small: a.export.medianMs, large: b.export.medianMs, ratio: ratio(b.export.medianMs, a.export.medianMs), limit: NaN, of: per },
    { target: 'CSV export, RSS growth MiB', small: a.export.rssGrowthMiB, large: b.export.rssGrowthMiB, ratio: NaN, limit: 30, of: 'MiB at the larger' },
    {
      target: 'start-up, ms',
      small: startup.emptyMs,
      large: startup.byLeads[large.spec.leads]!,
      ratio: ratio(startup.byLeads[large.spec.leads]!, startup.emptyMs),
      limit: 2,
      of: `${n(b.leads)} / empty`,
    },
    { target: 'lead POST p99 during the purge, ms', small: purge.p99WithoutMs, large: purge.p99WithMs, ratio: purge.ratio, limit: 2, of: 'with / without' },
    // Target 4: what the service holds after the office at the larger store, against its peak under the lead rows.
    ...(leadRssMiB
      ? [
          {
            target: 'RSS after the office, MiB',
            small: leadRssMiB,
            large: b.rssAfterMiB,
            ratio: ratio(b.rssAfterMiB, leadRssMiB),
            limit: 1.5,
            of: 'office / lead rows',
          },
        ]
      : []),
  ].map((t) => ({ ...t, pass: Number.isNaN(t.limit) ? true : Number.isNaN(t.ratio) ? t.large < t.limit : t.ratio <= t.limit }));

  const rows = targets.map((t) => [
    t.target,
    String(Math.round(t.small * 10) / 10),
    String(Math.round(t.large * 10) / 10),
    Number.isNaN(t.ratio) ? '' : `${t.ratio} (${t.of})`,
    Number.isNaN(t.limit) ? '(none)' : Number.isNaN(t.ratio) ? `< ${t.limit} MiB` : `≤ ${t.limit}`,
    Number.isNaN(t.limit) ? '' : t.pass ? 'PASS' : 'MISS',
  ]);
  const header = ['office target', `at ${n(a.leads)} (or without)`, `at ${n(b.leads)} (or with)`, 'ratio', 'threshold', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(['', line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n'));
  console.log(
    `start-up: empty ${startup.emptyMs} ms, ${Object.entries(startup.byLeads)
      .map(([k, v]) => `${n(Number(k))} leads ${v} ms`)
      .join(', ')}; ` +
      `purge: ${purge.removed} leads in ${purge.purgeMs} ms, ${purge.overlapMs} ms of it after the first answer; ${purge.leadsDuring} leads measured with it, ${purge.leadsWithout} without`,
  );
  if (!leadRssMiB) console.log('RSS after the office against the lead rows (target 4): measured by a whole `npm run bench`, which runs both.');
  if (!smoke) {
    const file = join(ROOT, 'docs/images/bench-office.svg');
    writeFileSync(file, officeChart(figures, new Date()));
    console.log(`chart: ${file}`);
  }
  return {
    stores: [...stores, expired].map((s) => ({ ...s.spec, expired: s.spec.expired ?? 0, buildSeconds: s.buildSeconds, cached: s.cached })),
    figures,
    startup,
    purge,
    targets,
  };
}
