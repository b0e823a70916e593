/** The inbox at a glance in the office's words: the twelve weeks on the office's clock, the chart's parts, and "Showing 51–100 of 1,234". */
import { describe, expect, it } from 'vitest';
import { chartSeries, chartWeeks, showingWords, weekStarts } from '../../src/office/overview.ts';

const ZONE = 'America/Los_Angeles';

describe('the inbox at a glance', () => {
  it('draws the weeks from Monday midnight in the office’s time zone, on a Monday, a Sunday night and across a clock change', () => {
    // Monday 23 November, 00:30 in Portland (08:30 UTC): this week began half an hour earlier.
    expect(weekStarts(new Date('2026-11-23T08:30:00Z'), ZONE).at(-2)!.toISOString()).toBe('2026-11-23T08:00:00.000Z');
    // Sunday 22 November, 23:30 in Portland (Monday in UTC): still the week of Monday 16 November.
    const sunday = weekStarts(new Date('2026-11-23T07:30:00Z'), ZONE);
    expect(sunday.at(-2)!.toISOString()).toBe('2026-11-16T08:00:00.000Z');
    expect(sunday.at(-1)!.toISOString()).toBe('2026-11-23T08:00:00.000Z');
    // Across the end of daylight time (1 November): each bound is a local midnight, 7 days of 24 hours but one.
    const spans = sunday.slice(1).map((d, i) => (d.getTime() - sunday[i]!.getTime()) / 3_600_000);
    expect(spans.filter((h) => h === 169)).toHaveLength(1);
    expect(spans.filter((h) => h === 168)).toHaveLength(11);
  });

  it('puts each count in its part: a service offered, another service, or a contact message', () => {
    const weeks = weekStarts(new Date('2026-11-25T20:00:00Z'), ZONE);
    const series = chartSeries(['Deep clean']);
    expect(series.map((s) => s.label)).toEqual(['Deep clean', 'Another service', 'Contact messages']);
    const chart = chartWeeks(
      weeks,
      [
        { week: 11, form: 'quote', service: 'Deep clean', count: 3 },
        { week: 11, form: 'quote', service: undefined, count: 2 },
        { week: 11, form: 'support', service: undefined, count: 1 },
        { week: 0, form: 'quote', service: 'Deep clean', count: 1 },
      ],
      series,
      ZONE,
    );
    expect(chart).toHaveLength(12);
    expect(chart[11]).toEqual({ monday: '2026-11-23', label: 'Nov 23', counts: [3, 2, 1], total: 6 });
    expect(chart[0]).toEqual({ monday: '2026-09-07', label: 'Sep 7', counts: [1, 0, 0], total: 1 });
  });

  it('says which leads a page shows, of how many', () => {
    expect(showingWords(50, 50, 1234)).toBe('Showing 51–100 of 1,234 leads.');
    expect(showingWords(1200, 34, 1234)).toBe('Showing 1,201–1,234 of 1,234 leads.');
    expect(showingWords(0, 7, 7)).toBe('Showing all 7 leads.');
    expect(showingWords(0, 1, 1)).toBe('Showing the only lead.');
    expect(showingWords(500, 0, 120)).toBe('No more leads here: all 120 leads are on earlier pages.');
  });
});
