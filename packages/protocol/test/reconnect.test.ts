import { describe, expect, it } from 'vitest';
import { reconnectDelay, type ResolvedReconnectOptions, resolveReconnect } from '../src/index.js';

const DEFAULTS: ResolvedReconnectOptions = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  factor: 2,
  maxAttempts: 10,
  jitter: 0.5,
};

describe('resolveReconnect', () => {
  it('follows enabledByDefault when unset; false turns it off; true gives the defaults', () => {
    expect(resolveReconnect(undefined, DEFAULTS, false)).toBeUndefined();
    expect(resolveReconnect(undefined, DEFAULTS, true)).toEqual(DEFAULTS);
    expect(resolveReconnect(false, DEFAULTS, true)).toBeUndefined();
    expect(resolveReconnect(true, DEFAULTS, false)).toEqual(DEFAULTS);
    expect(resolveReconnect({ factor: 1.5, maxAttempts: 3 }, DEFAULTS, false)).toEqual({
      ...DEFAULTS,
      factor: 1.5,
      maxAttempts: 3,
    });
  });

  it('refuses values out of range, naming the option', () => {
    expect(() => resolveReconnect({ jitter: 2 }, DEFAULTS, true)).toThrow(
      /reconnect\.jitter must be between 0 and 1/,
    );
    expect(() => resolveReconnect({ factor: 0.5 }, DEFAULTS, true)).toThrow(
      /reconnect\.factor must be at least 1/,
    );
    expect(() => resolveReconnect({ maxAttempts: -1 }, DEFAULTS, true)).toThrow(/reconnect\.maxAttempts/);
    expect(() => resolveReconnect({ initialDelayMs: Number.NaN }, DEFAULTS, true)).toThrow(/initialDelayMs/);
  });
});

describe('reconnectDelay', () => {
  it('grows by factor per attempt, capped at maxDelayMs, exact without jitter', () => {
    const policy = { initialDelayMs: 100, maxDelayMs: 1_000, factor: 2, maxAttempts: 10, jitter: 0 };
    expect([0, 1, 2, 3, 4, 20].map((n) => reconnectDelay(policy, n))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
    expect(reconnectDelay({ ...policy, factor: 1.5 }, 2)).toBe(225);
  });

  it('with jitter stays within [delay × (1 − jitter), delay]', () => {
    const policy = { initialDelayMs: 100, maxDelayMs: 1_000, factor: 2, maxAttempts: 10, jitter: 0.5 };
    for (let i = 0; i < 50; i++) {
      const third = reconnectDelay(policy, 2);
      expect(third).toBeGreaterThanOrEqual(200);
      expect(third).toBeLessThanOrEqual(400);
      const late = reconnectDelay(policy, 30);
      expect(late).toBeGreaterThanOrEqual(500);
      expect(late).toBeLessThanOrEqual(1_000);
    }
  });

  it("never undercuts a server's retry (SSE: 'The client MUST respect the retry field')", () => {
    const policy = { initialDelayMs: 100, maxDelayMs: 1_000, factor: 2, maxAttempts: 10, jitter: 1 };
    for (let i = 0; i < 20; i++) {
      expect(reconnectDelay(policy, 0, 300)).toBeGreaterThanOrEqual(300);
      expect(reconnectDelay(policy, 5, 5_000)).toBe(5_000);
    }
  });
});
