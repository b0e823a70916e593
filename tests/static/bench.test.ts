/**
 * The benchmark runs (a fraction of a second per row, the lead also unpinned against the bare platform and
 * without the lead's secondary writes, customers beside one client's flood, a 200-lead soak, the
 * office on tiny stores over 700 days and within one day) and finds every 201 in its store. No timing is asserted.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server.ts';

/** A row of the bench's table, as much of it as this test reads. */
type Row = {
  case: string;
  server: string;
  peakRssMiB: number;
  created?: number;
  stored?: number;
  cores: { server: string; loadGenerator: string };
  ratioToBare?: { throughput: number; p99: number };
  without?: string[];
};

describe('npm run bench -- --smoke', () => {
  it('measures every case against its baseline and loses no acknowledged lead', async () => {
    await promisify(execFile)('npm', ['run', '--silent', 'bench', '--', '--smoke'], { cwd: ROOT, maxBuffer: 8 * 1024 * 1024 });
    const result = JSON.parse(readFileSync(`${ROOT}bench/results/smoke.json`, 'utf8'));
    expect(result.lost).toBe(0);
    const cases = new Set(result.rows.map((r: { case: string }) => r.case));
    expect(cases).toEqual(new Set(['lead POST', 'lead POST, unpinned', 'GET /api/v1', "429 under one client's flood", 'prerendered page', '/openapi.json']));
    for (const row of result.rows) {
      expect(row.requestsPerSecond, `${row.case} ${row.server}`).toBeGreaterThan(0);
      expect(row.peakRssMiB).toBeGreaterThan(0);
      if (!row.server.startsWith('baseline')) expect(row.ratio.throughput).toBeGreaterThan(0);
      if (row.case.startsWith('lead POST') && (row.server.startsWith('service') || row.server === 'bare platform')) {
        expect(row.created).toBeGreaterThan(0);
        expect(row.stored).toBeGreaterThanOrEqual(row.created);
      }
    }
    // Astro's own share is measured beside ours, against bare Node's floor; the flood is refused, past its first 10, by both.
    expect(result.rows.filter((r: { server: string }) => r.server === 'bare Astro endpoint').map((r: { case: string }) => r.case)).toContain('GET /api/v1');
    expect(result.rows.filter((r: { server: string }) => r.server === 'bare Node endpoint').map((r: { case: string }) => r.case)).toEqual(['lead POST']);
    // As a small server runs it: the bare platform, the same-work baseline and the service (and the
    // service on a store without every index and trigger of a lead but the primary key and the UNIQUE ones), on every core.
    const unpinned: Row[] = result.rows.filter((r: Row) => r.case === 'lead POST, unpinned');
    expect(unpinned.map((r) => r.server)).toEqual(['baseline', 'bare platform', 'service', 'service without all']);
    for (const row of unpinned) {
      expect(row.ratioToBare!.throughput, row.server).toBeGreaterThan(0);
      if (result.machine.pinned) expect(row.cores.server, row.server).toBe(row.cores.loadGenerator);
    }
    if (result.machine.pinned)
      for (const row of result.rows.filter((r: Row) => r.case === 'lead POST'))
        expect([row.cores.server, row.cores.loadGenerator], row.server).toEqual(['1', '0']);
    const dropped = result.without.all.droppable.map((w: { name: string }) => w.name);
    expect(dropped).toEqual(expect.arrayContaining(['leads_by_search', 'lead_counted', 'lead_day_counted']));
    expect(dropped).not.toContain('leads_by_reference');
    expect(unpinned.at(-1)!.without).toEqual(dropped);
    expect(result.without.rows.map((r: { server: string }) => r.server)).toEqual(['service without all']);
    for (const share of result.astroShare) expect(share.ceiling, `${share.case} ${share.concurrency}`).toBeGreaterThan(0);
    expect(result.astroShare.map((a: { case: string }) => a.case)).toContain('lead POST');
    const flood = result.rows.filter((r: { case: string; server: string }) => r.case.startsWith('429') && r.server !== 'bare Astro endpoint');
    for (const row of flood) expect(row.non2xx, row.server).toBeGreaterThan(0);
    // Customers beside one client's flood, pinned (when the machine pins) and unpinned: both loads ran, the flood was refused, every lead stored.
    const beside: Array<{
      pinned: boolean;
      alone: { requestsPerSecond: number };
      beside: { requestsPerSecond: number };
      flood: { refusedShare: number };
      created: number;
      stored: number;
    }> = result.beside;
    expect(beside.map((r) => r.pinned)).toEqual(result.machine.pinned ? [true, false] : [false]);
    for (const row of beside) {
      expect(row.alone.requestsPerSecond).toBeGreaterThan(0);
      expect(row.beside.requestsPerSecond).toBeGreaterThan(0);
      expect(row.flood.refusedShare).toBeGreaterThan(0);
      expect(row.stored).toBeGreaterThanOrEqual(row.created);
    }
    // The soak (200 leads here): every lead acknowledged and stored, memory read for both servers.
    expect(result.soak.map((r: { server: string }) => r.server)).toEqual(['baseline', 'service']);
    for (const row of result.soak) {
      expect(row.created, row.server).toBe(row.leads);
      expect(row.stored, row.server).toBe(row.leads);
      expect(row.rssIdleMiB).toBeGreaterThan(0);
      expect(row.rssByTenthMiB, row.server).toHaveLength(10);
    }
    expect(result.soak[1].ratio.peakRss).toBeGreaterThan(0);
    // The office (stores of 200 and 2,000 leads here): each operation found what it looked for on both, each target has its ratio.
    const office = result.office;
    expect(office.figures.map((f: { leads: number }) => f.leads)).toEqual([200, 2_000]);
    // The first page on busy days: every lead within one day, some first contacted and some waiting.
    expect(office.oneDay.map((f: { leads: number }) => f.leads)).toEqual([200, 2_000]);
    for (const f of office.oneDay) {
      expect(f.firstPageMs).toBeGreaterThan(0);
      expect(f.day.contacted).toBeGreaterThan(0);
      expect(f.day.waiting).toBeGreaterThan(0);
      expect(Date.parse(f.day.to) - Date.parse(f.day.from)).toBeLessThanOrEqual(25 * 60 * 60 * 1000);
    }
    expect(office.targets.map((t: { target: string }) => t.target)).toContain('first page, leads sent within one day');
    for (const f of office.figures) for (const ms of Object.values(f.medianMs)) expect(ms).toBeGreaterThan(0);
    // The inbox at a glance: its last page, the counts and the chart, timed on both.
    for (const f of office.figures)
      expect(Object.keys(f.overviewMs)).toEqual(['inbox, the last page', 'inbox, filtered', 'counts by status (store)', 'leads per week (store)']);
    for (const f of office.figures) for (const ms of Object.values(f.overviewMs)) expect(ms).toBeGreaterThan(0);
    expect(office.figures[1].export.bytes).toBeGreaterThan(office.figures[0].export.bytes);
    expect(office.purge.removed).toBe(office.purge.expired);
    expect(office.startup.emptyMs).toBeGreaterThan(0);
    expect(office.targets.map((t: { target: string }) => t.target)).toContain('lead POST p99 during the purge, ms');
    // Target 4: the service's memory after the office, against its peak under this run's lead rows.
    const memory = office.targets.find((t: { target: string }) => t.target === 'RSS after the office, MiB');
    expect(memory.small).toBe(Math.max(...result.rows.filter((r: Row) => r.case === 'lead POST' && r.server === 'service').map((r: Row) => r.peakRssMiB)));
    expect(memory.large).toBeGreaterThan(0);
    for (const t of office.targets) expect(typeof t.pass, t.target).toBe('boolean');
  });
});
