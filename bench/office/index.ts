/**
 * The office at volume (issue 41, targets 2 and 3): stores of 10,000 leads and 1,000 caught
 * submissions and of 100,000 and 10,000 (and 1,000 and 100, for the chart), built by the bench
 * (stores.ts), then, against the built service on each: the office's pages over HTTP (measure.ts),
 * the CSV export of everything, the start-up with each store and with an empty one, and the
 * start-up purge of 10,000 leads past retention during leads (purge.ts). Prints each target with
 * its ratio and PASS or MISS against the issue's threshold; draws docs/images/bench-office.svg.
 * The office's first page on busy days (issue 49): stores of 10,000 and 100,000 leads all sent within
 * one day (two days before the build), the first page (`/office`) timed on each against the
 * threshold of 1.5×, and beside it the overview's reads on the store, and the team's load per person
 * (issue 55), also against 1.5×.
 * `--smoke`: stores of 200 and 2,000 leads (over 700 days, and within one day), one or two of each
 * measurement, no chart (seven starts of the service, 15–25 s on a busy 2-core machine).
 * `BENCH_OFFICE_STORES=day`: only the stores within one day; `=span`: only the 700-day ones.
 * `BENCH_OFFICE_SIZES=1000,10000`: stores of these sizes instead (the one-day stores: the two largest).
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { ROOT } from '../serve.ts';
import { officeChart } from './chart.ts';
import { measureFirstPage, measureOffice, OPERATIONS, OVERVIEW, PROMISE, startupMs, type FirstPageFigures, type StoreFigures } from './measure.ts';
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
  /** `BENCH_OFFICE_STORES`: which stores were measured. */
  measured: 'all' | 'span' | 'day';
  stores: Array<{ leads: number; spam: number; expired: number; withinOneDay: boolean; buildSeconds: number; cached: boolean }>;
  /** The 700-day stores (none with `BENCH_OFFICE_STORES=day`). */
  figures: StoreFigures[];
  startup?: { emptyMs: number; byLeads: Record<number, number> };
  purge?: PurgeFigures;
  /** The stores of leads sent within one day (none with `BENCH_OFFICE_STORES=span`). */
  oneDay: FirstPageFigures[];
  targets: Target[];
}

const ratio = (a: number, b: number) => +(a / Math.max(b, 0.01)).toFixed(2);

/**
 * `leadRssMiB`: the service's peak resident memory under the lead rows of the same run (a whole
 * `npm run bench`), for target 4; without it (`--office` alone) that target is not measured.
 */
export async function officeBench({ smoke, leadRssMiB }: { smoke: boolean; leadRssMiB?: number }): Promise<OfficeResult> {
  const measured = (process.env.BENCH_OFFICE_STORES ?? 'all').trim().toLowerCase();
  if (measured !== 'all' && measured !== 'span' && measured !== 'day') throw new Error(`BENCH_OFFICE_STORES: 'day', 'span' or 'all', not '${measured}'`);
  const span = measured !== 'day';
  const oneDay = measured !== 'span';
  // BENCH_OFFICE_SIZES=1000,10000: other sizes (two or more, each with a tenth as many caught submissions), to measure quickly.
  const asked = process.env.BENCH_OFFICE_SIZES?.split(',')
    .map(Number)
    .filter((x) => x > 0)
    .sort((x, y) => x - y);
  if (asked && asked.length < 2) throw new Error('BENCH_OFFICE_SIZES: two sizes or more, e.g. 1000,10000');
  const sizes: StoreSpec[] =
    asked && !smoke
      ? asked.map((leads) => ({ leads, spam: Math.round(leads / 10) }))
      : smoke
        ? [
            { leads: 200, spam: 20 },
            { leads: 2_000, spam: 200 },
          ]
        : [
            { leads: 1_000, spam: 100 },
            { leads: 10_000, spam: 1_000 },
            { leads: 100_000, spam: 10_000 },
          ];
  // The busy days: the two larger sizes, every lead within one day.
  const daySizes: StoreSpec[] = sizes.slice(-2).map((s) => ({ ...s, withinOneDay: true }));
  const repeat = smoke ? 2 : Number(process.env.BENCH_OFFICE_REPEAT ?? 15);
  const exportsPerStore = smoke ? 1 : 3;
  const startups = smoke ? 1 : 3;
  const purgeRuns = smoke ? 1 : 2;

  const specs = [...(span ? sizes : []), ...(oneDay ? daySizes : [])];
  const described = (s: StoreSpec) => `${s.leads} leads + ${s.spam} caught${s.withinOneDay ? ', within one day' : ''}`;
  console.log(`\noffice: building the stores (${specs.map(described).join('; ')}) or reusing those kept…`);
  const stores: BuiltStore[] = [];
  for (const spec of span ? sizes : []) stores.push(await builtStore(spec));
  const dayStores: BuiltStore[] = [];
  for (const spec of oneDay ? daySizes : []) dayStores.push(await builtStore(spec));
  const large = stores.at(-1);
  const small = stores.at(-2);
  const expired = large && (await builtStore({ ...large.spec, expired: smoke ? 300 : 10_000 }, large));
  for (const s of [...stores, ...(expired ? [expired] : []), ...dayStores])
    console.log(
      `  ${s.spec.leads} leads (+${s.spec.expired ?? 0} expired)${s.day ? `, within ${s.day.from} – ${s.day.to}: ${s.day.contacted} contacted, ${s.day.waiting} waiting` : ''}: ${s.cached ? 'kept from an earlier run' : `built in ${s.buildSeconds} s`}`,
    );

  const figures: StoreFigures[] = [];
  let startup: OfficeResult['startup'];
  let purge: PurgeFigures | undefined;
  if (span) {
    console.log('office: start-up, the pages, the export…');
    for (const s of stores) figures.push(await measureOffice(s, repeat, s === small || s === large ? exportsPerStore : 1));
    // The smoke takes the start-ups of the runs above (one each); a whole run starts each store again, for medians.
    startup = { emptyMs: await startupMs(undefined, startups), byLeads: {} as Record<number, number> };
    for (const [i, s] of stores.entries())
      if (s === small || s === large) startup.byLeads[s.spec.leads] = smoke ? figures[i]!.startupMs : await startupMs(s, startups);
    console.log('office: the start-up purge during leads…');
    purge = await purgeEffect(expired!, purgeRuns, smoke ? 2 : 120);
  }
  const days: FirstPageFigures[] = [];
  if (oneDay) {
    console.log('office: the first page on leads sent within one day…');
    for (const s of dayStores) days.push(await measureFirstPage(s, repeat));
  }

  const n = (x: number) => x.toLocaleString('en-US');
  const targets: Target[] = [];
  if (span) {
    const [a, b] = [figures.at(-2)!, figures.at(-1)!];
    const per = `${n(b.leads)} / ${n(a.leads)}`;
    targets.push(
      ...OPERATIONS.map((op) => ({
        target: op,
        small: a.medianMs[op],
        large: b.medianMs[op],
        ratio: ratio(b.medianMs[op], a.medianMs[op]),
        limit: 1.5,
        of: per,
        pass: false,
      })),
      // The inbox at a glance (issue 38): timed, with no threshold of issue 41's.
      ...OVERVIEW.map((op) => ({
        target: op,
        small: a.overviewMs[op],
        large: b.overviewMs[op],
        ratio: ratio(b.overviewMs[op], a.overviewMs[op]),
        limit: NaN,
        of: per,
        pass: false,
      })),
      // Is the promise kept? (issue 46, item 2): the chart's store read, and the read with the figures worked out.
      ...PROMISE.map((op) => ({
        target: op,
        small: a.promiseMs[op],
        large: b.promiseMs[op],
        ratio: ratio(b.promiseMs[op], a.promiseMs[op]),
        limit: NaN,
        of: per,
        pass: false,
      })),
      {
        target: 'CSV export, ms',
        small: a.export.medianMs,
        large: b.export.medianMs,
        ratio: ratio(b.export.medianMs, a.export.medianMs),
        limit: NaN,
        of: per,
        pass: false,
      },
      {
        target: 'CSV export, RSS growth MiB',
        small: a.export.rssGrowthMiB,
        large: b.export.rssGrowthMiB,
        ratio: NaN,
        limit: 30,
        of: 'MiB at the larger',
        pass: false,
      },
      {
        target: 'start-up, ms',
        small: startup!.emptyMs,
        large: startup!.byLeads[large!.spec.leads]!,
        ratio: ratio(startup!.byLeads[large!.spec.leads]!, startup!.emptyMs),
        limit: 2,
        of: `${n(b.leads)} / empty`,
        pass: false,
      },
      {
        target: 'lead POST p99 during the purge, ms',
        small: purge!.p99WithoutMs,
        large: purge!.p99WithMs,
        ratio: purge!.ratio,
        limit: 2,
        of: 'with / without',
        pass: false,
      },
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
              pass: false,
            },
          ]
        : []),
    );
  }
  if (oneDay) {
    // Issue 49: the first page on busy days, the larger day against the smaller, and the overview's reads beside it (no threshold).
    const [a, b] = [days.at(-2)!, days.at(-1)!];
    const per = `${n(b.leads)} / ${n(a.leads)} within one day`;
    const store = (target: string, small: number, large: number) => ({ target, small, large, ratio: ratio(large, small), limit: NaN, of: per, pass: false });
    targets.push(
      {
        target: 'first page, leads sent within one day',
        small: a.firstPageMs,
        large: b.firstPageMs,
        ratio: ratio(b.firstPageMs, a.firstPageMs),
        limit: 1.5,
        of: per,
        pass: false,
      },
      ...(['counts by status (store)', 'leads per week (store)'] as const).map((op) => store(`${op}, within one day`, a.overviewMs[op], b.overviewMs[op])),
      ...PROMISE.map((op) => store(`${op}, within one day`, a.promiseMs[op], b.promiseMs[op])),
      // Issue 55, item 4: the team's load, the same work held at both sizes, flat in the leads of the store.
      { ...store("the team's load per person (store, µs), within one day", a.teamLoadUs, b.teamLoadUs), limit: 1.5 },
    );
    // The same number of leads within one day against over 700 days, in the same run (no threshold).
    for (const d of days) {
      const f = figures.find((x) => x.leads === d.leads);
      if (f)
        targets.push({
          target: `first page at ${n(d.leads)}: over 700 days, within one day`,
          small: f.medianMs['inbox, first page (waiting, by urgency)'],
          large: d.firstPageMs,
          ratio: ratio(d.firstPageMs, f.medianMs['inbox, first page (waiting, by urgency)']),
          limit: NaN,
          of: 'one day / 700 days',
          pass: false,
        });
    }
  }
  for (const t of targets) t.pass = Number.isNaN(t.limit) ? true : Number.isNaN(t.ratio) ? t.large < t.limit : t.ratio <= t.limit;

  const rows = targets.map((t) => [
    t.target,
    String(Math.round(t.small * 10) / 10),
    String(Math.round(t.large * 10) / 10),
    Number.isNaN(t.ratio) ? '' : `${t.ratio} (${t.of})`,
    Number.isNaN(t.limit) ? '(none)' : Number.isNaN(t.ratio) ? `< ${t.limit} MiB` : `≤ ${t.limit}`,
    Number.isNaN(t.limit) ? '' : t.pass ? 'PASS' : 'MISS',
  ]);
  const [smaller, larger] = (span ? figures : days).slice(-2).map((f) => f.leads);
  const header = ['office target', `at ${n(smaller!)} (or without)`, `at ${n(larger!)} (or with)`, 'ratio', 'threshold', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(['', line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n'));
  if (span)
    console.log(
      `start-up: empty ${startup!.emptyMs} ms, ${Object.entries(startup!.byLeads)
        .map(([k, v]) => `${n(Number(k))} leads ${v} ms`)
        .join(', ')}; ` +
        `purge: ${purge!.removed} leads in ${purge!.purgeMs} ms, ${purge!.overlapMs} ms of it after the first answer; ${purge!.leadsDuring} leads measured with it, ${purge!.leadsWithout} without`,
    );
  for (const d of days)
    console.log(
      `within one day, ${n(d.leads)} leads (${d.day.from} – ${d.day.to}; ${n(d.day.contacted)} first contacted, ${n(d.day.waiting)} waiting): first page ${d.firstPageMs} ms (${d.firstPageRangeMs.join('–')})`,
    );
  if (span && !leadRssMiB) console.log('RSS after the office against the lead rows (target 4): measured by a whole `npm run bench`, which runs both.');
  if (span && !smoke) {
    const file = join(ROOT, 'docs/images/bench-office.svg');
    writeFileSync(file, officeChart(figures, new Date()));
    console.log(`chart: ${file}`);
  }
  return {
    measured,
    stores: [...stores, ...(expired ? [expired] : []), ...dayStores].map((s) => ({
      ...s.spec,
      expired: s.spec.expired ?? 0,
      withinOneDay: s.spec.withinOneDay === true,
      buildSeconds: s.buildSeconds,
      cached: s.cached,
    })),
    figures,
    startup,
    purge,
    oneDay: days,
    targets,
  };
}
