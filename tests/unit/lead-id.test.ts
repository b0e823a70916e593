/** A lead's id (decision 0027): a UUID, of version 7, in the order the leads were received, never the same twice. */
import { describe, expect, it } from 'vitest';
import { leadId } from '../../src/leads/lead.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("a lead's id", () => {
  it('is a UUID of version 7 whose first 48 bits are the millisecond it was received', () => {
    const id = leadId(new Date('2026-11-27T09:15:00.123Z'));
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(Date.parse('2026-11-27T09:15:00.123Z'));
  });

  it('sorts as the leads were received, and is never the same twice in the same millisecond', () => {
    const at = Date.parse('2026-11-27T09:15:00Z');
    const ids = Array.from({ length: 2_000 }, (_, i) => leadId(new Date(at + Math.floor(i / 100))));
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 100; i < ids.length; i += 100) expect(ids[i - 1]! < ids[i]!).toBe(true);
  });
});
