import { describe, expect, it } from 'vitest';
import * as core from '../src/core.js';
import * as http from '../src/http/index.js';
import * as kit from '../src/transport-kit.js';

// Issue #36: one constant per concept; where two defaults differ, the name says why.
describe('shared limit defaults', () => {
  it('hold one value per concept', () => {
    expect(kit.DEFAULT_MAX_BUFFERED_BYTES).toBe(8 * 1024 * 1024);
    expect(kit.DEFAULT_SEND_STALL_TIMEOUT_MS).toBe(30_000);
    expect(kit.DEFAULT_KEEP_ALIVE_MS).toBe(30_000);
    expect(kit.DEFAULT_SSE_KEEP_ALIVE_MS).toBe(15_000);
    expect(kit.DEFAULT_DRAIN_TIMEOUT_MS).toBe(30_000);
    expect(kit.DEFAULT_SESSION_IDLE_TIMEOUT_MS).toBe(30 * 60_000);
    expect(kit.DEFAULT_MAX_QUEUED_MESSAGES).toBe(1_000);
  });

  it('keep the relations their docs promise', () => {
    // A socket's buffer plus the send queue in front of it give the room of one event stream.
    expect(kit.DEFAULT_MAX_BUFFERED_BYTES + kit.DEFAULT_MAX_QUEUED_BYTES).toBeGreaterThanOrEqual(
      kit.DEFAULT_MAX_STREAM_BUFFERED_BYTES,
    );
    // Two maximal network messages fit in a socket's buffer.
    expect(kit.DEFAULT_MAX_BUFFERED_BYTES).toBe(2 * kit.DEFAULT_MAX_MESSAGE_BYTES);
    // A keep-alive comment gets no answer, so it comes well inside the ping interval.
    expect(kit.DEFAULT_SSE_KEEP_ALIVE_MS).toBeLessThan(kit.DEFAULT_KEEP_ALIVE_MS);
  });

  it('are the same constants on every entry that exports them', () => {
    expect(http.DEFAULT_DRAIN_TIMEOUT_MS).toBe(kit.DEFAULT_DRAIN_TIMEOUT_MS);
    expect(http.DEFAULT_KEEP_ALIVE_MS).toBe(kit.DEFAULT_KEEP_ALIVE_MS);
    expect(http.DEFAULT_MAX_BUFFERED_BYTES).toBe(kit.DEFAULT_MAX_BUFFERED_BYTES);
    expect(http.DEFAULT_MAX_QUEUED_MESSAGES).toBe(kit.DEFAULT_MAX_QUEUED_MESSAGES);
    expect(http.DEFAULT_SEND_STALL_TIMEOUT_MS).toBe(kit.DEFAULT_SEND_STALL_TIMEOUT_MS);
    expect(http.DEFAULT_SESSION_IDLE_TIMEOUT_MS).toBe(kit.DEFAULT_SESSION_IDLE_TIMEOUT_MS);
    expect(http.DEFAULT_SSE_KEEP_ALIVE_MS).toBe(kit.DEFAULT_SSE_KEEP_ALIVE_MS);
    expect(core.DEFAULT_SESSION_IDLE_TIMEOUT_MS).toBe(kit.DEFAULT_SESSION_IDLE_TIMEOUT_MS);
  });

  it('are what the in-memory stores fall back to', async () => {
    let now = 0;
    const sessions = new core.InMemorySessionStore({ now: () => now });
    await sessions.create('s', {});
    now = core.DEFAULT_SESSION_IDLE_TIMEOUT_MS - 1;
    expect(await sessions.get('s')).toBeDefined();
    now = 2 * core.DEFAULT_SESSION_IDLE_TIMEOUT_MS + 1;
    expect(await sessions.get('s')).toBeUndefined();
  });
});
