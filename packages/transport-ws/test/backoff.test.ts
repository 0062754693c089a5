import { reconnectDelay, resolveReconnect } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { WEBSOCKET_RECONNECT_DEFAULTS } from '../src/index.js';

describe('reconnect backoff (the shared policy with the WebSocket defaults)', () => {
  it('is off unless asked for, with documented defaults when on', () => {
    expect(resolveReconnect(undefined, WEBSOCKET_RECONNECT_DEFAULTS, false)).toBeUndefined();
    expect(resolveReconnect(false, WEBSOCKET_RECONNECT_DEFAULTS, false)).toBeUndefined();
    expect(resolveReconnect(true, WEBSOCKET_RECONNECT_DEFAULTS, false)).toEqual({
      initialDelayMs: 500,
      maxDelayMs: 30_000,
      factor: 2,
      maxAttempts: 10,
      jitter: 0.5,
    });
  });

  it('doubles per attempt within [half, full] of the ceiling, capped at maxDelayMs', () => {
    const options = { ...WEBSOCKET_RECONNECT_DEFAULTS, initialDelayMs: 100, maxDelayMs: 1_000 };
    for (let i = 0; i < 50; i++) {
      const first = reconnectDelay(options, 0);
      const third = reconnectDelay(options, 2);
      const late = reconnectDelay(options, 19);
      expect(first).toBeGreaterThanOrEqual(50);
      expect(first).toBeLessThanOrEqual(100);
      expect(third).toBeGreaterThanOrEqual(200);
      expect(third).toBeLessThanOrEqual(400);
      expect(late).toBeGreaterThanOrEqual(500);
      expect(late).toBeLessThanOrEqual(1_000);
    }
  });
});
