/**
 * The clock's helpers the lead's path leans on: a date format is made once for its options and kept,
 * and what depends on the local minute alone is worked out once a minute and time zone.
 */
import { describe, expect, it } from 'vitest';
import { dateFormat, perMinute } from '../../src/lib/time.ts';
import { dateWindow } from '../../src/leads/validate.ts';

describe('dateFormat', () => {
  it('gives the same format for the same locale and options, and another for other options', () => {
    const pacific = dateFormat('en-US', { timeZone: 'America/Los_Angeles', hour: 'numeric' });
    expect(dateFormat('en-US', { timeZone: 'America/Los_Angeles', hour: 'numeric' })).toBe(pacific);
    expect(dateFormat('en-US', { timeZone: 'America/Denver', hour: 'numeric' })).not.toBe(pacific);
    expect(dateFormat('en-GB', { timeZone: 'America/Los_Angeles', hour: 'numeric' })).not.toBe(pacific);
    expect(pacific.format(new Date('2026-11-26T20:30:00Z'))).toBe('12 PM');
  });
});

describe('perMinute', () => {
  it('works a value out once per minute and time zone, and again at the next minute or in another zone', () => {
    const asked: string[] = [];
    const hour = perMinute((at, timeZone) => {
      asked.push(`${at.toISOString()} ${timeZone}`);
      return dateFormat('en-US', { timeZone, hour: 'numeric', minute: 'numeric' }).format(at);
    });
    expect(hour(new Date('2026-11-26T20:30:01Z'), 'America/Los_Angeles')).toBe('12:30 PM');
    expect(hour(new Date('2026-11-26T20:30:59Z'), 'America/Los_Angeles')).toBe('12:30 PM');
    expect(asked).toHaveLength(1);
    expect(hour(new Date('2026-11-26T20:31:00Z'), 'America/Los_Angeles')).toBe('12:31 PM');
    expect(hour(new Date('2026-11-26T20:31:00Z'), 'America/Denver')).toBe('1:31 PM');
    expect(asked).toHaveLength(3);
  });

  it('keeps the window of preferred dates right across the office’s midnight', () => {
    const before = dateWindow(new Date('2026-11-27T07:59:59Z'), 'America/Los_Angeles');
    expect(before.from).toBe('2026-11-26');
    expect(dateWindow(new Date('2026-11-27T08:00:00Z'), 'America/Los_Angeles').from).toBe('2026-11-27');
    expect(dateWindow(new Date('2026-11-27T08:00:00Z'), 'Pacific/Honolulu').from).toBe('2026-11-26');
  });
});
