/** The in-process rate limiter: 10 submissions per client in a fixed window that opens at its first, on a clock the test moves. */
import { describe, expect, it, vi } from 'vitest';
import { createMemoryLimiter } from '../../src/limiter/memory-limiter.ts';

const LIMIT = { points: 10, windowSeconds: 60 };

function limiterAt(start = Date.parse('2026-11-23T10:00:00Z')) {
  const clock = { now: start };
  const limiter = createMemoryLimiter(LIMIT, () => clock.now);
  const advance = (seconds: number) => void (clock.now += seconds * 1000);
  const consumeTimes = async (key: string, n: number) => {
    let last;
    for (let i = 0; i < n; i++) last = await limiter.consume(key);
    return last!;
  };
  return { limiter, advance, consumeTimes };
}

describe('in-process rate limiter', () => {
  it('allows 10 submissions, refuses the 11th, and counts refusals too', async () => {
    const { limiter, advance, consumeTimes } = limiterAt();
    expect(await limiter.consume('2001:db8:1::/64')).toEqual({ allowed: true, limit: 10, remaining: 9, resetSeconds: 60 });
    advance(20);
    expect(await consumeTimes('2001:db8:1::/64', 9)).toEqual({ allowed: true, limit: 10, remaining: 0, resetSeconds: 40 });
    expect(await limiter.consume('2001:db8:1::/64')).toEqual({ allowed: false, limit: 10, remaining: 0, resetSeconds: 40 });
    advance(39.5);
    expect(await limiter.consume('2001:db8:1::/64')).toMatchObject({ allowed: false, resetSeconds: 1 });
  });

  it('tells a refused client, from its first refusal to the end of its window, counting nothing', async () => {
    const { limiter, advance, consumeTimes } = limiterAt();
    await consumeTimes('192.0.2.10', 10);
    expect(limiter.refused('192.0.2.10')).toBeUndefined();
    const refusal = await limiter.consume('192.0.2.10');
    expect(limiter.refused('192.0.2.10')).toEqual(refusal);
    advance(45);
    // As the next submission would be answered, and nothing counted by asking.
    const later = limiter.refused('192.0.2.10');
    expect(later).toEqual({ allowed: false, limit: 10, remaining: 0, resetSeconds: 15 });
    expect(await limiter.consume('192.0.2.10')).toEqual(later);
    advance(15);
    expect(limiter.refused('192.0.2.10')).toBeUndefined();
    expect(await limiter.consume('192.0.2.10')).toMatchObject({ allowed: true, remaining: 9 });
  });

  it('opens a new window when the old one ends, without sliding it', async () => {
    const { limiter, advance, consumeTimes } = limiterAt();
    await consumeTimes('192.0.2.7', 11);
    advance(60);
    expect(await limiter.consume('192.0.2.7')).toEqual({ allowed: true, limit: 10, remaining: 9, resetSeconds: 60 });
  });

  it('keeps a separate budget per client, and peeking counts nothing and refuses nothing', async () => {
    const { limiter, advance, consumeTimes } = limiterAt();
    await consumeTimes('192.0.2.7', 11);
    expect(await limiter.peek('192.0.2.8')).toEqual({ allowed: true, limit: 10, remaining: 10, resetSeconds: 60 });
    expect(await limiter.consume('192.0.2.8')).toMatchObject({ allowed: true, remaining: 9 });
    advance(30);
    expect(await limiter.peek('192.0.2.7')).toEqual({ allowed: true, limit: 10, remaining: 0, resetSeconds: 30 });
    expect(await limiter.consume('192.0.2.7')).toMatchObject({ allowed: false, remaining: 0 });
    expect(await limiter.peek('192.0.2.8')).toMatchObject({ remaining: 9, resetSeconds: 30 });
  });

  it('keeps a window that spans a rotation of its generations', async () => {
    const { limiter, advance, consumeTimes } = limiterAt();
    advance(59);
    await consumeTimes('192.0.2.9', 10);
    advance(2); // the generations rotate at 60 s; this window opened at 59 s and ends at 119 s
    expect(await limiter.consume('192.0.2.9')).toEqual({ allowed: false, limit: 10, remaining: 0, resetSeconds: 58 });
    advance(58);
    expect(await limiter.consume('192.0.2.9')).toMatchObject({ allowed: true, remaining: 9 });
  });

  it('lets go of every client within two windows of its last submission, with no timer per client', async () => {
    const { limiter, advance } = limiterAt();
    for (let i = 0; i < 1000; i++) await limiter.consume(`198.51.100.${i % 250}:${i}`);
    expect(limiter.held()).toBe(1000);
    advance(61);
    await limiter.consume('203.0.113.1');
    expect(limiter.held()).toBe(1001);
    advance(60);
    await limiter.consume('203.0.113.2');
    expect(limiter.held()).toBe(2);
    advance(180);
    await limiter.peek('203.0.113.3');
    expect(limiter.held()).toBe(0);
  });

  it('keeps time on a monotonic clock: a wall clock stepped back an hour does not hold a client for an hour', async () => {
    const wallClock = Date.now.bind(Date);
    let step = 0;
    const stepped = vi.spyOn(Date, 'now').mockImplementation(() => wallClock() + step);
    try {
      const limiter = createMemoryLimiter({ points: 2, windowSeconds: 1 });
      await limiter.consume('2001:db8:2::/64');
      await limiter.consume('2001:db8:2::/64');
      expect(await limiter.consume('2001:db8:2::/64')).toMatchObject({ allowed: false, resetSeconds: 1 });
      step = -3_600_000;
      await new Promise((r) => setTimeout(r, 1_100));
      expect(await limiter.consume('2001:db8:2::/64')).toMatchObject({ allowed: true, remaining: 1 });
    } finally {
      stepped.mockRestore();
    }
  });
});
