import { describe, expect, it } from 'vitest';
import { backoffDelay, resolveReconnectOptions } from '../src/backoff.js';

describe('reconnect backoff', () => {
  it('is off unless asked for, with documented defaults when on', () => {
    expect(resolveReconnectOptions(undefined)).toBeUndefined();
    expect(resolveReconnectOptions(false)).toBeUndefined();
    expect(resolveReconnectOptions(true)).toEqual({
      initialDelayMs: 500,
      maxDelayMs: 30_000,
      maxAttempts: 10,
    });
  });

  it('doubles per attempt within [half, full] of the ceiling, capped at maxDelayMs', () => {
    const options = { initialDelayMs: 100, maxDelayMs: 1_000, maxAttempts: 10 };
    for (let i = 0; i < 50; i++) {
      const first = backoffDelay(1, options);
      const third = backoffDelay(3, options);
      const late = backoffDelay(20, options);
      expect(first).toBeGreaterThanOrEqual(50);
      expect(first).toBeLessThanOrEqual(100);
      expect(third).toBeGreaterThanOrEqual(200);
      expect(third).toBeLessThanOrEqual(400);
      expect(late).toBeGreaterThanOrEqual(500);
      expect(late).toBeLessThanOrEqual(1_000);
    }
  });
});
