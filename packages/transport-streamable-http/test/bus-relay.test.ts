import { InMemoryEventStore, InMemoryMessageBus, type JSONRPCMessage } from '@x/protocol/core';
import { describe, expect, it } from 'vitest';
import { BusRelay } from '../src/server/legacy/bus-relay.js';
import { repliesTopic } from '../src/server/legacy/session-bus.js';
import { StreamRouter } from '../src/server/legacy/stream-router.js';
import { SseWriter } from '../src/server/sse-writer.js';
import { parseSse } from './helpers.js';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { n },
});
const listChanged: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };

/** One process's copy of session `sid` (stream tag `t`), on a bus and event store the processes share. */
function sessionCopy(
  instanceId: string,
  bus: InMemoryMessageBus,
  eventStore: InMemoryEventStore | undefined,
): { router: StreamRouter; relay: BusRelay; errors: unknown[] } {
  const errors: unknown[] = [];
  const router = new StreamRouter({ tag: 't', json: false, maxQueued: 10 });
  const relay = new BusRelay({
    shared: { bus, instanceId },
    sessionId: 'sid',
    eventStore,
    router,
    reportError: (error) => errors.push(error),
  });
  return { router, relay, errors };
}

/** Attaches a GET stream connection to `router` and returns it. */
function openGetStream(router: StreamRouter): SseWriter {
  const writer = new SseWriter();
  router.standalone.attach(writer);
  return writer;
}

async function framesOf(writer: SseWriter): Promise<ReturnType<typeof parseSse>> {
  writer.close();
  return parseSse(await new Response(writer.stream).text());
}

describe('BusRelay', () => {
  it('writes on the GET stream held by one process what another raises, stored first with its event id', async () => {
    const bus = new InMemoryMessageBus();
    const eventStore = new InMemoryEventStore();
    const holder = sessionCopy('a', bus, eventStore);
    const other = sessionCopy('b', bus, eventStore);
    const stream = openGetStream(holder.router);
    await holder.relay.listen();

    await other.relay.publishToStream(note(1));
    await holder.relay.publishToStream(note(2));
    expect(eventStore.size).toBe(2);
    const frames = await framesOf(stream);
    expect(frames.map((frame) => frame.id)).toEqual(['t.g#0', 't.g#1']);
    expect(frames.map((frame) => JSON.parse(frame.data))).toEqual([note(1), note(2)]);
    expect([...holder.errors, ...other.errors]).toEqual([]);
  });

  it('sends a change notification only from the process that holds the GET stream', async () => {
    const bus = new InMemoryMessageBus();
    const holder = sessionCopy('a', bus, undefined);
    const other = sessionCopy('b', bus, undefined);
    const stream = openGetStream(holder.router);
    await holder.relay.listen();
    // Every process raises the same list_changed for its own copy of the session.
    await other.relay.publishToStream(listChanged);
    await holder.relay.publishToStream(listChanged);
    expect((await framesOf(stream)).map((frame) => JSON.parse(frame.data))).toEqual([listChanged]);
  });

  it('drops the late live copy of an event the last resume already replayed', async () => {
    const bus = new InMemoryMessageBus();
    const holder = sessionCopy('a', bus, undefined);
    const stream = openGetStream(holder.router);
    await holder.relay.listen();
    holder.relay.markReplayed(new Set(['t.g#7']));
    await bus.publish('stream:t.g', { e: 't.g#7', m: note(7) });
    await bus.publish('stream:t.g', { e: 't.g#8', m: note(8) });
    expect((await framesOf(stream)).map((frame) => frame.id)).toEqual(['t.g#8']);
  });

  it('gives server→client requests ids unique across processes and routes the answers back to the asker', async () => {
    const bus = new InMemoryMessageBus();
    const a = sessionCopy('a', bus, undefined);
    const b = sessionCopy('b', bus, undefined);
    const request = a.relay.outgoing({ jsonrpc: '2.0', id: 3, method: 'sampling/createMessage', params: {} });
    expect(request).toMatchObject({ id: 'a~n3' });
    expect(a.relay.outgoing(note(1))).toEqual(note(1));

    const forA: unknown[] = [];
    await bus.subscribe(repliesTopic('a'), (payload) => forA.push(payload));
    const answer: JSONRPCMessage = { jsonrpc: '2.0', id: 'a~n3', result: {} };
    const foreign: JSONRPCMessage = { jsonrpc: '2.0', id: 'client-chose-this', result: {} };
    // Posted to b: a's answer goes to a over the bus, the rest stays.
    expect(b.relay.routeReplies([answer, note(1), foreign])).toEqual([note(1), foreign]);
    expect(forA).toEqual([{ s: 'sid', m: answer }]);
    // Posted to a: restored to the id a's engine knows.
    expect(a.relay.routeReplies([answer])).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }]);
  });

  it('keeps its subscription while a GET stream connection is attached, and ends it when none is', async () => {
    const bus = new InMemoryMessageBus();
    const holder = sessionCopy('a', bus, undefined);
    const stream = openGetStream(holder.router);
    await holder.relay.listen();
    await holder.relay.listen();
    expect(bus.topicCount).toBe(1);
    holder.relay.unlisten();
    expect(bus.topicCount).toBe(1);
    stream.close();
    holder.relay.unlisten();
    await expect.poll(() => bus.topicCount).toBe(0);
    await holder.relay.listen();
    expect(bus.topicCount).toBe(1);
    holder.relay.stop();
    await expect.poll(() => bus.topicCount).toBe(0);
  });
});
