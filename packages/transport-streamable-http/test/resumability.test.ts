import type { JSONRPCMessage } from '@x/protocol';
import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../src/index.js';
import { openSession, POST_HEADERS, parseSse, raw, sseMessages, startServer } from './helpers.js';

const V = '2025-11-25';

function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

async function readUntil(
  reader: ReadableStreamDefaultReader<string>,
  done: (text: string) => boolean,
  initial = '',
): Promise<string> {
  let text = initial;
  while (!done(text)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += chunk.value;
  }
  return text;
}

function progress(message: JSONRPCMessage): unknown {
  return 'method' in message
    ? message.params?.['progress']
    : 'id' in message
      ? `response:${String(message.id)}`
      : '?';
}

describe('InMemoryEventStore', () => {
  it('replays only later events of the same stream, skipping priming events', async () => {
    const store = new InMemoryEventStore();
    const prime = await store.storeEvent('s1', undefined);
    const a = await store.storeEvent('s1', { jsonrpc: '2.0', method: 'a' });
    await store.storeEvent('s2', { jsonrpc: '2.0', method: 'other' });
    await store.storeEvent('s1', { jsonrpc: '2.0', method: 'b' });
    const replayed: string[] = [];
    const streamId = await store.replayEventsAfter(prime, {
      send: (_id, message) => {
        replayed.push((message as { method: string }).method);
      },
    });
    expect(streamId).toBe('s1');
    expect(replayed).toEqual(['a', 'b']);
    replayed.length = 0;
    await store.replayEventsAfter(a, {
      send: (_id, m) => void replayed.push((m as { method: string }).method),
    });
    expect(replayed).toEqual(['b']);
    expect(await store.replayEventsAfter('nope#1', { send: () => {} })).toBeUndefined();
  });

  it('is bounded per stream and in total, and refuses cursors whose successors were evicted', async () => {
    const store = new InMemoryEventStore({ maxEventsPerStream: 3, maxEvents: 5 });
    const first = await store.storeEvent('a', { jsonrpc: '2.0', method: 'a0' });
    for (let i = 1; i < 10; i++) await store.storeEvent('a', { jsonrpc: '2.0', method: `a${i}` });
    expect(store.size).toBe(3);
    expect(await store.replayEventsAfter(first, { send: () => {} })).toBeUndefined();
    for (let i = 0; i < 3; i++) await store.storeEvent('b', { jsonrpc: '2.0', method: `b${i}` });
    expect(store.size).toBeLessThanOrEqual(5);
  });
});

describe('resumable legacy streams', () => {
  it('a dropped POST stream resumes with Last-Event-ID: nothing lost, nothing duplicated', async () => {
    const afterDrop = gate();
    const midResume = gate();
    await using server = await startServer({
      eventStore: new InMemoryEventStore(),
      retryIntervalMs: 50,
      handlers: {
        work: async (_p, ctx) => {
          await ctx.notify('notifications/progress', { progressToken: 't', progress: 1 });
          await afterDrop.promise;
          await ctx.notify('notifications/progress', { progressToken: 't', progress: 2 });
          await ctx.notify('notifications/progress', { progressToken: 't', progress: 3 });
          await midResume.promise;
          await ctx.notify('notifications/progress', { progressToken: 't', progress: 4 });
          return { done: true };
        },
      },
    });
    const sessionId = await openSession(server.url, V);
    const headers = { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': V };
    const controller = new AbortController();
    const response = await fetch(server.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'work' }),
      signal: controller.signal,
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const first = await readUntil(reader, (t) => sseMessages(t).length >= 1);
    const events = parseSse(first);
    // Priming event: an id, `retry`, and empty data (2025-11-25 SEP-1699).
    expect(events[0]).toMatchObject({ data: '', retry: 50 });
    expect(events[0]!.id).toBeTruthy();
    const lastId = events[1]!.id!;
    controller.abort();
    await reader.cancel().catch(() => {});
    afterDrop.open();

    const resumed = await fetch(server.url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': V,
        'last-event-id': lastId,
      },
    });
    expect(resumed.status).toBe(200);
    const resumedReader = resumed.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = await readUntil(resumedReader, (t) => sseMessages(t).length >= 2);
    midResume.open();
    text = await readUntil(resumedReader, () => false, text);
    expect(sseMessages(text).map(progress)).toEqual([2, 3, 4, 'response:5']);
    const ids = parseSse(text).map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('closeSSEStream ends the connection with a retry hint; the client polls the rest with GET', async () => {
    const resume = gate();
    await using server = await startServer({
      eventStore: new InMemoryEventStore(),
      retryIntervalMs: 25,
      handlers: {
        poll: async (_p, ctx) => {
          await ctx.notify('notifications/progress', { progressToken: 'p', progress: 1 });
          ctx.extra?.closeSSEStream?.();
          await resume.promise;
          return { polled: true };
        },
      },
    });
    const sessionId = await openSession(server.url, V);
    const first = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': V },
      body: { jsonrpc: '2.0', id: 6, method: 'poll' },
    });
    const events = parseSse(first.text);
    expect(events.at(-1)).toMatchObject({ retry: 25 });
    expect(sseMessages(first.text).map(progress)).toEqual([1]);
    resume.open();
    const lastId = events.filter((e) => e.id !== undefined).at(-1)!.id!;
    const rest = await raw(server.url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': V,
        'last-event-id': lastId,
      },
    });
    expect(sseMessages(rest.text)).toEqual([{ jsonrpc: '2.0', id: 6, result: { polled: true } }]);
  });

  it('refuses a Last-Event-ID of another session', async () => {
    await using server = await startServer({ eventStore: new InMemoryEventStore() });
    const a = await openSession(server.url, V);
    const b = await openSession(server.url, V);
    const reply = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-session-id': a, 'mcp-protocol-version': V },
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    const id = parseSse(reply.text)[0]!.id!;
    const foreign = await raw(server.url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': b,
        'mcp-protocol-version': V,
        'last-event-id': id,
      },
    });
    expect(foreign.status).toBe(400);
  });

  it('does not prime streams for clients older than 2025-11-25', async () => {
    await using server = await startServer({ eventStore: new InMemoryEventStore() });
    const sessionId = await openSession(server.url, '2025-06-18');
    const reply = await raw(server.url, {
      headers: { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    expect(parseSse(reply.text).every((e) => e.data !== '')).toBe(true);
  });
});
