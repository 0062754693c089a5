import type { JSONRPCMessage } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../src/index.js';
import {
  DEFAULT_HANDLERS,
  initializeRequest,
  openSession,
  POST_HEADERS,
  parseSse,
  raw,
  sseMessages,
  startServer,
} from './helpers.js';

const V = '2025-11-25';

function sessionHeaders(sessionId: string): Record<string, string> {
  return { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': V };
}

describe('drain()', () => {
  it('refuses new sessions with 503 + Retry-After, serves its sessions, ends GET streams with retry, waits for requests in flight, then closes', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    await using server = await startServer({
      retryIntervalMs: 750,
      handlers: {
        ...DEFAULT_HANDLERS,
        slow: async () => {
          started();
          await gate;
          return { done: true };
        },
      },
    });
    const sessionId = await openSession(server.url);
    // fetch resolves once the handler attached the GET stream (its headers are out).
    const get = await fetch(server.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': V },
    });
    expect(get.status).toBe(200);
    const slow = raw(server.url, {
      headers: sessionHeaders(sessionId),
      body: { jsonrpc: '2.0', id: 2, method: 'slow' },
    });
    await running;

    let drained = false;
    const draining = server.handler.drain({ timeoutMs: 10_000 }).then(() => {
      drained = true;
    });
    expect(server.handler.draining).toBe(true);
    // The GET stream ends with a retry field (2025-11-25 "it SHOULD send an SSE event with a standard
    // retry field before closing the connection"): the client reconnects, elsewhere behind a balancer.
    const events = parseSse(await get.text());
    expect(events.at(-1)?.retry).toBe(750);

    // A new session goes elsewhere: 503 + Retry-After (RFC 9110 §15.6.4, §10.2.3).
    const refused = await raw(server.url, { headers: POST_HEADERS, body: initializeRequest(3) });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.text).toContain('draining');
    // Without a shared session store, only this process knows the session: it is still served.
    const ping = await raw(server.url, {
      headers: sessionHeaders(sessionId),
      body: { jsonrpc: '2.0', id: 4, method: 'ping' },
    });
    expect(ping.status).toBe(200);

    // The request in flight finishes; only then does the handler close.
    expect(drained).toBe(false);
    release();
    const answer = await slow;
    expect(sseMessages(answer.text)).toEqual([{ jsonrpc: '2.0', id: 2, result: { done: true } }]);
    await draining;
    expect(server.handler.sessionCount).toBe(0);
    const after = await raw(server.url, {
      headers: sessionHeaders(sessionId),
      body: { jsonrpc: '2.0', id: 5, method: 'ping' },
    });
    expect(after.status).toBe(503);
  });

  it('waits for an answer that is still being stored: drain never ends a POST stream before its result is written', async () => {
    // CI on stop 43: the answer had left the session's table of open requests while its event was still
    // on its way to the event store (a Redis round trip); drain saw nothing in flight, closed, and the POST
    // stream ended after its priming event, without the result.
    let storing!: () => void;
    const resultStoring = new Promise<void>((resolve) => {
      storing = resolve;
    });
    let releaseStore!: () => void;
    const storeGate = new Promise<void>((resolve) => {
      releaseStore = resolve;
    });
    class SlowResultStore extends InMemoryEventStore {
      override async storeEvent(streamId: string, message: JSONRPCMessage | undefined): Promise<string> {
        if (message !== undefined && 'result' in message && (message.id as unknown) === 'slow-1') {
          storing();
          await storeGate;
        }
        return super.storeEvent(streamId, message);
      }
    }
    await using server = await startServer({ eventStore: new SlowResultStore() });
    const sessionId = await openSession(server.url);
    const call = raw(server.url, {
      headers: sessionHeaders(sessionId),
      body: { jsonrpc: '2.0', id: 'slow-1', method: 'ping' },
    });
    await resultStoring;
    let drained = false;
    const draining = server.handler.drain({ timeoutMs: 10_000 }).then(() => {
      drained = true;
    });
    // Drain polls every 20 ms: give it polls to (wrongly) find nothing in flight before the store answers.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(drained).toBe(false);
    releaseStore();
    const answer = await call;
    expect(sseMessages(answer.text)).toEqual([{ jsonrpc: '2.0', id: 'slow-1', result: {} }]);
    await draining;
    expect(drained).toBe(true);
  });
});
