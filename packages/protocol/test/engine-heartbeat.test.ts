import { waitFor } from '@x/test-kit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HeartbeatTimeoutError, Protocol, resolveHeartbeat } from '../src/engine/index.js';
import { ConnectionClosedError } from '../src/errors.js';
import type { JSONRPCMessage } from '../src/jsonrpc.js';
import { InMemoryTransport } from '../src/transports/in-memory-transport.js';

// Spec 2025-11-25 basic/utilities/ping: "Implementations SHOULD periodically issue pings to detect
// connection health … After several failed pings, the implementation MAY reset the connection".
describe('engine heartbeat', () => {
  it('pings every intervalMs and stays up while the peer answers', async () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    const pings: JSONRPCMessage[] = [];
    const peer = new Protocol();
    peer.use({
      incomingRequest: (request, _ctx, next) => {
        pings.push(request);
        return next(request);
      },
    });
    await peer.connect(b);
    const engine = new Protocol({ heartbeat: { intervalMs: 20, timeoutMs: 1_000, maxMisses: 1 } });
    await engine.connect(a);
    await waitFor(() => pings.length >= 3);
    expect(pings[0]).toMatchObject({ method: 'ping' });
    expect(engine.transport).toBe(a);
    await engine.close();
  });

  it('declares the connection dead after maxMisses unanswered pings, naming the options', async () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    const seen: string[] = [];
    // A peer that is connected but never answers (a hung server).
    b.onmessage = (message) => void seen.push('method' in message ? message.method : 'response');
    await b.start();
    const engine = new Protocol({ heartbeat: { intervalMs: 10, timeoutMs: 30, maxMisses: 3 } });
    const errors: Error[] = [];
    engine.onerror = (error) => errors.push(error);
    let closed = false;
    engine.onclose = () => {
      closed = true;
    };
    await engine.connect(a);
    const pending = engine.request({ method: 'slow' }, z.object({}), { timeout: 60_000 }).catch((e) => e);
    await waitFor(() => closed, { timeoutMs: 10_000 });
    expect(seen.filter((m) => m === 'ping')).toHaveLength(3);
    const dead = errors.find((e) => e instanceof HeartbeatTimeoutError);
    expect(dead?.message).toMatch(/heartbeat\.timeoutMs \(30 ms\).*heartbeat\.maxMisses 3/);
    const failure = await pending;
    expect(failure).toBeInstanceOf(HeartbeatTimeoutError);
    expect(failure).toBeInstanceOf(ConnectionClosedError);
  });

  it('counts an error response as an answer (the peer is alive), and stops on close', async () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    const peer = new Protocol({ ping: false }); // answers ping with -32601
    let asked = 0;
    peer.use({
      incomingRequest: (request, _ctx, next) => {
        asked++;
        return next(request);
      },
    });
    await peer.connect(b);
    const engine = new Protocol({ heartbeat: { intervalMs: 10, timeoutMs: 500, maxMisses: 1 } });
    await engine.connect(a);
    await waitFor(() => asked >= 3);
    expect(engine.transport).toBe(a);
    await engine.close();
    const after = asked;
    await new Promise((resolve) => setTimeout(resolve, 50)); // no tick may follow a close
    expect(asked).toBe(after);
  });

  it('refuses an unusable option with a TypeError naming it', () => {
    expect(() => resolveHeartbeat({ intervalMs: 0 })).toThrow(/heartbeat\.intervalMs/);
    expect(() => resolveHeartbeat({ maxMisses: Number.NaN })).toThrow(/heartbeat\.maxMisses/);
    expect(resolveHeartbeat(false)).toBeUndefined();
    expect(resolveHeartbeat(true)).toEqual({ intervalMs: 120_000, timeoutMs: 30_000, maxMisses: 2 });
  });
});
