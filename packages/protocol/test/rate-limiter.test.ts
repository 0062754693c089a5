import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMIT, RateLimiter } from '@x/protocol/http';

function clock() {
  const time = { now: 1_000_000 };
  return { time, now: () => time.now };
}

describe('RateLimiter', () => {
  it('lets a burst through, then answers how long until the next token', () => {
    const { time, now } = clock();
    const limiter = new RateLimiter({ perSecond: 2, burst: 3, now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBe(500);
    time.now += 250;
    expect(limiter.take('a')).toBe(250);
    time.now += 250;
    expect(limiter.take('a')).toBe(0);
    // Another key has its own bucket.
    expect(limiter.take('b')).toBe(0);
  });

  it('refills to the burst and no further', () => {
    const { time, now } = clock();
    const limiter = new RateLimiter({ perSecond: 1, burst: 2, now });
    limiter.take('a');
    limiter.take('a');
    time.now += 60_000;
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 1000]);
  });

  it('keeps at most maxKeys keys, forgetting the longest untouched', () => {
    const { now } = clock();
    const limiter = new RateLimiter({ perSecond: 1, burst: 1, maxKeys: 3, now });
    for (const key of ['a', 'b', 'c']) limiter.take(key);
    expect(limiter.take('a')).toBe(1000); // touched: now the most recent
    for (let i = 0; i < 10_000; i++) limiter.take(`flood-${i}`);
    expect(limiter.size).toBe(3);
  });

  it('has documented defaults and refuses nonsense options', () => {
    const limiter = new RateLimiter();
    expect([limiter.perSecond, limiter.burst, limiter.maxKeys]).toEqual([
      DEFAULT_RATE_LIMIT.perSecond,
      DEFAULT_RATE_LIMIT.burst,
      DEFAULT_RATE_LIMIT.maxKeys,
    ]);
    expect(() => new RateLimiter({ perSecond: 0 })).toThrow(/perSecond/);
    expect(() => new RateLimiter({ burst: Number.NaN })).toThrow(/burst/);
  });
});
